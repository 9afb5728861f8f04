/**
 * Call-level probe edits of a reference script's writes: an unrequested field on a created record, an
 * extra record, one label per call, a label removal aimed at a look-alike or left out or named with its
 * prefix; other legal routes of transitions to the same status; a change to a record and its undo.
 */
import type { Script } from "../agent/scripted/replay.ts";
import type { Expectation } from "../reward/expectation.ts";
import type { Page } from "../sandbox/confluence/model.ts";
import { TRANSITIONS } from "../sandbox/jira/catalog.ts";
import type { Issue } from "../sandbox/jira/model.ts";
import type { Site } from "../sandbox/site.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";

export interface CallEdit {
  kind: string;
  detail: string;
  must: "fail" | "pass";
  script: Script;
}

type Args = Record<string, unknown>;

/** Per write tool: edits of its arguments, each a must-fail or must-pass probe. */
const EDITS: Record<
  string,
  { kind: string; detail: string; must: "fail" | "pass"; edit: (a: Args) => Args[] }[]
> = {
  jira_create_issue: [
    {
      kind: "unrequested field",
      detail: "labels on the new issue",
      must: "fail",
      edit: (a) => [withFields(a, { labels: ["probe-extra"] })],
    },
    {
      kind: "unrequested field",
      detail: "a due date on the new issue",
      must: "fail",
      edit: (a) => [withFields(a, { duedate: "2031-01-15" })],
    },
    { kind: "extra entity", detail: "the issue created twice", must: "fail", edit: (a) => [a, a] },
  ],
  confluence_create_page: [
    {
      kind: "unrequested field",
      detail: "the page created as a draft",
      must: "fail",
      edit: (a) => [{ ...a, status: "draft" }],
    },
    {
      kind: "extra entity",
      detail: "a second page",
      must: "fail",
      edit: (a) => [a, { ...a, title: `${a.title} (copy)` }],
    },
  ],
  jira_create_remote_link: [
    {
      kind: "unrequested field",
      detail: "a summary on the link",
      must: "fail",
      edit: (a) => [{ ...a, object: { ...(a.object as Args), summary: "probe" } }],
    },
    {
      kind: "metadata",
      detail: "the link with the globalId, application and relationship Confluence's integration sets",
      must: "pass",
      edit: (a) => [
        {
          ...a,
          globalId: `appId=probe-app&pageId=${
            /pageId=(\d+)|pages\/(\d+)/
              .exec(String((a.object as Args)?.url))
              ?.slice(1)
              .find(Boolean) ?? "1"
          }`,
          application: { type: "com.atlassian.confluence", name: "Confluence" },
          relationship: "Wiki Page",
        },
      ],
    },
    { kind: "extra entity", detail: "the link created twice", must: "fail", edit: (a) => [a, a] },
  ],
  confluence_remove_page_label: [
    {
      kind: "look-alike",
      detail: "the look-alike label <name>-v2 removed instead",
      must: "fail",
      edit: (a) => [{ ...a, name: `${a.name}-v2` }],
    },
    { kind: "missing entity", detail: "one page left with the label", must: "fail", edit: () => [] },
    {
      kind: "another accepted form",
      detail: "the label named with its prefix (global:<name>)",
      must: "pass",
      edit: (a) => [{ ...a, name: `global:${a.name}` }],
    },
  ],
  confluence_add_page_labels: [
    {
      kind: "unrequested field",
      detail: "labels with the prefix team",
      must: "fail",
      edit: (a) => [{ ...a, labels: labelsOf(a).map((l) => ({ ...l, prefix: "team" })) }],
    },
    {
      kind: "extra entity",
      detail: "an extra label",
      must: "fail",
      edit: (a) => [{ ...a, labels: [...labelsOf(a), { prefix: "global", name: "probe-extra" }] }],
    },
    {
      kind: "one call per label",
      detail: "each label in a call of its own",
      must: "pass",
      edit: (a) => labelsOf(a).map((l) => ({ ...a, labels: [l] })),
    },
  ],
};

const withFields = (a: Args, extra: Args) => ({ ...a, fields: { ...(a.fields as Args), ...extra } });
const labelsOf = (a: Args) => (Array.isArray(a.labels) ? (a.labels as Args[]) : []);

export function perCallEdits(reference: Script): CallEdit[] {
  const edits: CallEdit[] = [];
  reference.calls.forEach((c, i) => {
    for (const e of EDITS[c.name] ?? []) {
      const replaced = e.edit(c.arguments as Args).map((args) => ({ name: c.name, arguments: args }));
      if (e.kind === "one call per label" && replaced.length < 2) continue;
      const calls = [...reference.calls.slice(0, i), ...replaced, ...reference.calls.slice(i + 1)];
      edits.push({ kind: e.kind, detail: e.detail, must: e.must, script: { ...reference, calls } });
    }
  });
  return edits;
}

/**
 * Other simple routes of transitions (up to three steps) from the issue's status to the expected one:
 * the reference's transitions replaced by the route, the last step carrying the reference's fields.
 */
export function alternativeRoutes(
  site: Site,
  expectation: Expectation,
  reference: Script,
  to?: string,
): { detail: string; script: Script }[] {
  const entity = expectation.entities.find(
    (e) => e.kind === "update" && e.table === "issues" && "statusId" in e.fields,
  );
  if (entity?.kind !== "update") return [];
  const target = to ?? (entity.fields.statusId as { equals: string }).equals;
  const issue = site.get("issues", entity.id) as Issue;
  // Only this issue's transitions (a bulk task moves several issues).
  const mine = (c: ToolCallRequest) =>
    c.name === "jira_transition_issue" &&
    [issue.key, issue.id].includes(String((c.arguments as Args).issueIdOrKey));
  const steps = reference.calls.map((c, i) => [c, i] as const).filter(([c]) => mine(c));
  if (steps.length === 0) return [];
  const done = steps
    .map(([c]) => String((c.arguments as { transition: { id: string } }).transition.id))
    .join(">");
  const last = steps.at(-1)![0].arguments as Args;
  const routes = simpleRoutes(issue.statusId, target, 3).filter((r) => r.join(">") !== done);
  const others = reference.calls.filter((c) => !mine(c));
  const cut = reference.calls.slice(0, steps[0]![1]).filter((c) => !mine(c)).length;
  return routes.slice(0, 2).map((route) => {
    const moves: ToolCallRequest[] = route.map((id, k) => ({
      name: "jira_transition_issue",
      arguments: {
        issueIdOrKey: last.issueIdOrKey,
        transition: { id },
        ...(k === route.length - 1 && last.fields ? { fields: last.fields } : {}),
      },
    }));
    return {
      detail: `transitions ${route.join(" → ")} instead of ${done.replace(/>/g, " → ")}`,
      script: { ...reference, calls: [...others.slice(0, cut), ...moves, ...others.slice(cut)] },
    };
  });
}

/** Routes to the statuses other than the expected one (each must fail). */
export function wrongRoutes(
  site: Site,
  expectation: Expectation,
  reference: Script,
): { detail: string; script: Script }[] {
  const entity = expectation.entities.find(
    (e) => e.kind === "update" && e.table === "issues" && "statusId" in e.fields,
  );
  if (entity?.kind !== "update") return [];
  const target = (entity.fields.statusId as { equals: string }).equals;
  const from = (site.get("issues", entity.id) as Issue).statusId;
  const others = [...new Set(TRANSITIONS.map((t) => t.to))].filter((s) => s !== target && s !== from);
  return others.flatMap((status) => alternativeRoutes(site, expectation, reference, status).slice(0, 1));
}

function simpleRoutes(from: string, to: string, maxSteps: number): string[][] {
  const routes: string[][] = [];
  const walk = (status: string, route: string[], seen: Set<string>) => {
    if (status === to && route.length > 0) return void routes.push(route);
    if (route.length === maxSteps) return;
    for (const t of TRANSITIONS.filter((x) => x.from.includes(status) && !seen.has(x.to)))
      walk(t.to, [...route, t.id], new Set([...seen, t.to]));
  };
  walk(from, [], new Set([from]));
  return routes.sort((a, b) => a.length - b.length);
}

/** A change to a record (a label on an issue, a title on a page) and the call that undoes it. */
export function changeAndUndo(
  site: Site,
  table: "issues" | "pages",
  id: string,
): [ToolCallRequest, ToolCallRequest] {
  if (table === "issues") {
    const key = (site.get("issues", id) as Issue).key;
    const edit = (op: string) => ({
      name: "jira_edit_issue",
      arguments: { issueIdOrKey: key, update: { labels: [{ [op]: "probe-revert" }] } },
    });
    return [edit("add"), edit("remove")];
  }
  const page = site.get("pages", id) as Page;
  const update = (title: string, number: number) => ({
    name: "confluence_update_page",
    arguments: { id, status: page.status, title, body: page.body, version: { number } },
  });
  return [
    update(`${page.title} (draft)`, page.version.number + 1),
    update(page.title, page.version.number + 2),
  ];
}
