/**
 * confluence-label-cleanup-v1: remove a label from every page of one space that carries it, and from no
 * other page (pages in other spaces carry it too). Level 1: the space by key, 2–3 labelled pages there,
 * 1–2 elsewhere. Level 2: the space by name, 3–4 labelled pages, and the look-alike label `<label>-v2`
 * on other pages of the same space (it stays). Level 3: the space is "the space that holds the page
 * <title>", 30 filler pages make its listing span pages, 4–6 labelled pages (some among the fillers);
 * in a quarter of level-3 tasks (mustDecline) no page of that space has the label: the answer says so
 * and nothing is written.
 *
 * Expectation: the (page, global, label) rows of exactly the space's labelled pages are deleted; nothing
 * else changes. Validation: a read of the space or of one of its labelled pages (a CQL search whose
 * result holds one counts). Points: fields 0.7 (the deletions), validate 0.15, verify 0.15 (e.g. a
 * page's labels read after the last removal). Budget: reference calls + 4. Introduced names: the label.
 */
import type { Expectation } from "../../reward/expectation.ts";
import type { Page } from "../../sandbox/confluence/model.ts";
import { attachLabel } from "../../sandbox/confluence/store.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { workPoints } from "../expectation-parts.ts";
import { paraphrase } from "../prompts.ts";
import { addFillerPages, contentPages, DECLINE_CLAUSE, mustDecline } from "../site-picks.ts";
import { cleanupLabels } from "./pools.ts";

export interface LabelCleanupExpected {
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  via: "key" | "name" | "page";
  /** Level 3: the page whose space it is. */
  pageTitle?: string;
  pageId?: string;
  label: string;
  /** The space's pages that carry the label (empty when the task must be declined). */
  pageIds: string[];
  refuse?: string;
}

const PROMPTS = [
  'Remove the label "{label}" from every page in {space} that has it. Pages in other spaces keep it.',
  'Please clean up the label "{label}" in {space}: take it off each page there that carries it, and leave pages outside that space alone.',
  'The label "{label}" is no longer used in {space}. Remove it from all pages of that space (only there).',
  'Find every page of {space} labelled "{label}" and remove that label from them. Do not touch other labels or other spaces.',
];

export default defineScenario<LabelCleanupExpected>({
  id: "confluence-label-cleanup-v1",
  description: "Remove a label from every page of a space that has it (CQL or listing), and only there.",
  tools: [
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_search_cql",
    "confluence_get_page_labels",
    "confluence_remove_page_label",
  ],
  levels: [1, 2, 3],
  generate({ site, random, level, split }) {
    const label = random.pick(cleanupLabels(split));
    const space = random.pick([...site.values("spaces")]);
    const via = level === 1 ? "key" : level === 2 ? "name" : "page";
    const e: LabelCleanupExpected = {
      spaceId: space.id,
      spaceKey: space.key,
      spaceName: space.name,
      via,
      label,
      pageIds: [],
    };
    let where = level === 1 ? `the ${space.key} space` : `the "${space.name}" space`;
    if (level === 3) {
      const known = random.pick(contentPages(site).filter((p) => p.spaceId === space.id));
      e.pageTitle = known.title;
      e.pageId = known.id;
      where = `the space that holds the page "${known.title}"`;
      addFillerPages(site, space, 30, known.authorId);
    }
    const inSpace = contentPages(site).filter((p) => p.spaceId === space.id);
    const elsewhere = contentPages(site).filter((p) => p.spaceId !== space.id);
    for (const page of random.shuffle(elsewhere).slice(0, random.int(1, 2) + (level > 1 ? 1 : 0)))
      attachLabel(site, page.id, "global", label);
    const count = level === 1 ? random.int(2, 3) : level === 2 ? random.int(3, 4) : random.int(4, 6);
    const chosen = random.shuffle(inSpace).slice(0, Math.min(count, inSpace.length - 1));
    if (level === 3 && mustDecline(site)) {
      e.refuse = `No page of the "${space.name}" space carries the label "${label}".`;
    } else {
      for (const page of chosen) attachLabel(site, page.id, "global", label);
      e.pageIds = chosen.map((p) => p.id).sort((a, b) => Number(a) - Number(b));
    }
    if (level >= 2) addLookalikes(site, random, label, inSpace, chosen);
    const prompt = paraphrase(random.derive("prompt"), PROMPTS, { label, space: where });
    return { prompt: level === 3 ? prompt + DECLINE_CLAUSE : prompt, expected: e };
  },
  introduces: (e) => [e.label],
  expect({ expected: e }): Expectation {
    const points = workPoints();
    const budget = e.pageIds.length + (e.via === "page" ? 3 : 2) + 4;
    const space = { table: "spaces" as const, id: e.spaceId };
    const known = e.pageId ? [{ table: "pages" as const, id: e.pageId }] : [];
    if (e.refuse)
      return {
        entities: [],
        validate: [space, ...known],
        refuse: e.refuse,
        refuseNames: [e.label],
        budget,
        points,
      };
    return {
      entities: e.pageIds.map((id) => ({
        kind: "delete" as const,
        ref: `"${e.label}" on page ${id}`,
        label: `the label "${e.label}" is removed from page ${id} of ${e.spaceKey}`,
        table: "pageLabels" as const,
        id: `${id}:global:${e.label}`,
      })),
      validate: [space, ...known, ...e.pageIds.map((id) => ({ table: "pages" as const, id }))],
      budget,
      points,
    };
  },
  *reference({ expected: e }) {
    let space = e.via === "key" ? `space="${e.spaceKey}"` : `space.title="${e.spaceName}"`;
    let name = e.via === "key" ? e.spaceKey : e.spaceName;
    if (e.via === "page") {
      const found = yield call("confluence_search_cql", { cql: `type=page AND title="${e.pageTitle}"` });
      const hit = (
        found.body as { results: { resultGlobalContainer: { title: string; displayUrl: string } }[] }
      ).results[0]!.resultGlobalContainer;
      space = `space="${hit.displayUrl.replace("/spaces/", "")}"`;
      name = hit.title;
    }
    const cql = `type=page AND ${space} AND label="${e.label}"`;
    const found = yield call("confluence_search_cql", { cql, limit: 100 });
    const ids = (found.body as { results: { content: { id: string } }[] }).results.map((r) => r.content.id);
    if (ids.length === 0)
      return `I did not change anything: no page of the "${name}" space carries the label "${e.label}".`;
    for (const id of ids) yield call("confluence_remove_page_label", { id, name: e.label });
    yield call("confluence_get_page_labels", { id: ids.at(-1) });
    return `Removed "${e.label}" from ${ids.length} pages of ${name}.`;
  },
});

/** Level 2–3: `<label>-v2` on a labelled page and on an unlabelled page of the same space. */
function addLookalikes(site: Site, random: Random, label: string, inSpace: Page[], chosen: Page[]): void {
  const other = random.pick(inSpace.filter((p) => !chosen.includes(p)));
  for (const page of [other, ...chosen.slice(0, 1)]) attachLabel(site, page.id, "global", `${label}-v2`);
}
