/**
 * confluence-page-tree through the alias tool sets (src/scenarios/alias-solution.ts): only mcp-atlassian
 * covers it (at level 3 it finds the labelled page with CQL; Rovo has no CQL search). Like the
 * reference it declines a level-3 task that cannot be done, after looking.
 */
import { type AliasSolutions, declined, findSpaceKey, type Results } from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { PageTreeExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<PageTreeExpected> = {
  *"mcp-atlassian"({ expected: e }) {
    const spaceKey = yield* findSpaceKey(e, e.via !== "key");
    let anchorId: string;
    if (e.via === "label") {
      const cql = `type = page AND space = "${spaceKey}" AND label = "${e.anchorLabel}"`;
      const found = yield call("confluence_search", { query: cql });
      const hit = (found.body as Results<{ content?: { id: string } }>).results[0];
      if (!hit?.content) return declined(`page with the label "${e.anchorLabel}"`);
      anchorId = hit.content.id;
    } else {
      const anchor = yield call("confluence_get_page", { title: e.anchorTitle, space_key: spaceKey });
      anchorId = (anchor.body as { id: string }).id;
    }
    const parent = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: e.text,
      parent_id: anchorId,
    });
    const parentId = (parent.body as { id: string }).id;
    for (const title of e.children)
      yield call("confluence_create_page", { space_key: spaceKey, title, content: "", parent_id: parentId });
    yield call("confluence_get_page_children", { parent_id: parentId });
    return `Created "${e.title}" and its children.`;
  },
};
