/**
 * The catalogue of workflow compositions, generated from one small declarative table: which family's
 * created record (FEEDS: an issue, a sub-task, a page) can be the target of which other families. A
 * composition is a chain (a family that creates a record, then 1–3 families bound to it, possibly a
 * second link of the chain) with independent steps of the scope's families before or after it, 2–5 steps
 * in all. Held-out feeds (pairings never trained on) appear only in the held-out scope.
 */

/** One step: a family, and (for a bound step) the 0-based index of the step whose record it targets. */
export interface StepSpec {
  family: string;
  bind?: number;
}

export interface Composition {
  /** `jira-create-issue-v1 > jira-assign-v1@1 > ...` (`@n`: bound to step n). */
  id: string;
  steps: StepSpec[];
}

export type Scope = "jira" | "confluence" | "cross-product" | "heldout";

interface Feed {
  from: string;
  to: readonly string[];
}

/** Which created records feed which families (in-family pairings, trained on). */
export const FEEDS: readonly Feed[] = [
  {
    from: "jira-create-issue-v1",
    to: [
      "jira-assign-v1",
      "jira-comment-v1",
      "jira-transition-v1",
      "jira-subtask-create-v1",
      "cross-product-page-link-v1",
    ],
  },
  { from: "cross-product-page-link-v1", to: ["confluence-page-label-v1"] },
  { from: "jira-subtask-create-v1", to: ["jira-comment-v1"] },
  { from: "confluence-page-create-v1", to: ["confluence-page-label-v1", "confluence-page-create-v1"] },
];

/** Pairings never trained on: only the held-out workflow family composes them. */
export const HELD_OUT_FEEDS: readonly Feed[] = [
  { from: "jira-create-issue-v1", to: ["jira-link-issues-v1"] },
  { from: "jira-subtask-create-v1", to: ["jira-transition-v1"] },
];

const JIRA = [
  "jira-create-issue-v1",
  "jira-assign-v1",
  "jira-comment-v1",
  "jira-edit-fields-v1",
  "jira-transition-v1",
  "jira-bulk-transition-v1",
  "jira-subtask-create-v1",
];
const CONFLUENCE = [
  "confluence-page-create-v1",
  "confluence-page-label-v1",
  "confluence-page-update-v1",
  "confluence-label-cleanup-v1",
];
/** Independent steps: families that act on records of the initial site (no creates another step could clash with). */
const INDEPENDENT: Record<Scope, readonly string[]> = {
  jira: [
    "jira-edit-fields-v1",
    "jira-bulk-transition-v1",
    "jira-comment-v1",
    "jira-assign-v1",
    "jira-transition-v1",
  ],
  confluence: ["confluence-page-update-v1", "confluence-label-cleanup-v1", "confluence-page-label-v1"],
  "cross-product": [
    "cross-product-page-link-v1",
    "confluence-page-update-v1",
    "jira-edit-fields-v1",
    "confluence-label-cleanup-v1",
    "jira-comment-v1",
  ],
  heldout: [
    "confluence-page-tree-v1",
    "cross-product-status-report-v1",
    "jira-link-issues-v1",
    "confluence-page-update-v1",
  ],
};

export const productOf = (family: string): "jira" | "confluence" | "cross-product" =>
  family.startsWith("jira-") ? "jira" : family.startsWith("confluence-") ? "confluence" : "cross-product";

/** Chains: a producer and the steps bound to it (indices relative to the chain). */
function chains(feeds: readonly Feed[], families: readonly string[]): StepSpec[][] {
  const out: StepSpec[][] = [];
  const into = (from: string) =>
    [...new Set(feeds.filter((f) => f.from === from).flatMap((f) => f.to))].filter((t) =>
      families.includes(t),
    );
  for (const from of new Set(feeds.map((f) => f.from))) {
    if (!families.includes(from)) continue;
    const feed = { from };
    const consumers = into(from);
    // Ordered selections of 1–3 distinct consumers, each bound to the producer (step 0).
    const pick = (chosen: string[]) => {
      if (chosen.length > 0)
        out.push([{ family: feed.from }, ...chosen.map((family) => ({ family, bind: 0 }))]);
      if (chosen.length === 3) return;
      for (const c of consumers) if (!chosen.includes(c)) pick([...chosen, c]);
    };
    pick([]);
    // A second link: a consumer that itself creates a record, and the families bound to that one.
    for (const mid of consumers)
      for (const last of into(mid))
        out.push([{ family: feed.from }, { family: mid, bind: 0 }, { family: last, bind: 1 }]);
  }
  return out;
}

const inScope = (scope: Scope): readonly string[] =>
  scope === "jira"
    ? JIRA
    : scope === "confluence"
      ? CONFLUENCE
      : [...JIRA, ...CONFLUENCE, "cross-product-page-link-v1"];

/** Every composition of a scope, in a fixed order. */
export function compositions(scope: Scope): Composition[] {
  const feeds = scope === "heldout" ? [...FEEDS, ...HELD_OUT_FEEDS] : FEEDS;
  const families = scope === "heldout" ? [...inScope(scope), "jira-link-issues-v1"] : inScope(scope);
  const fillers = INDEPENDENT[scope];
  const seen = new Map<string, Composition>();
  const base = chains(feeds, families).filter(
    (c) => scope !== "heldout" || c.some((s, i) => i > 0 && isHeldOutPair(c[s.bind!]!.family, s.family)),
  );
  base.forEach((chain, n) => {
    for (let extra = 0; chain.length + extra <= 5; extra++) {
      for (let r = 0; r < fillers.length; r++) {
        const fill = Array.from({ length: extra }, (_, k) => fillers[(n + r + k) % fillers.length]!);
        for (const before of [0, Math.ceil(extra / 2)]) {
          const steps: StepSpec[] = [
            ...fill.slice(0, before).map((family) => ({ family })),
            ...chain.map((s) => (s.bind === undefined ? s : { ...s, bind: s.bind + before })),
            ...fill.slice(before).map((family) => ({ family })),
          ];
          if (steps.length < 2 || !fits(scope, steps)) continue;
          const id = steps
            .map((s) => `${s.family}${s.bind === undefined ? "" : `@${s.bind + 1}`}`)
            .join(" > ");
          if (!seen.has(id)) seen.set(id, { id, steps });
        }
      }
    }
  });
  return [...seen.values()];
}

const isHeldOutPair = (from: string, to: string) =>
  HELD_OUT_FEEDS.some((f) => f.from === from && f.to.includes(to));

/** A cross-product composition uses both products; no family runs twice as an independent step. */
function fits(scope: Scope, steps: StepSpec[]): boolean {
  const loose = steps.filter((s) => s.bind === undefined && !isProducer(steps, s)).map((s) => s.family);
  if (new Set(loose).size !== loose.length) return false;
  if (scope !== "cross-product") return true;
  const products = new Set(steps.map((s) => productOf(s.family)));
  return products.has("cross-product") || (products.has("jira") && products.has("confluence"));
}

const isProducer = (steps: StepSpec[], step: StepSpec) => steps.some((s) => s.bind === steps.indexOf(step));
