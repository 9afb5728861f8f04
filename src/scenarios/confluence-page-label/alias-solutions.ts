/**
 * confluence-page-label through the alias tool sets (src/scenarios/alias-solution.ts): only
 * mcp-atlassian covers it (Rovo has no Confluence label tool).
 */
import { type AliasSolutions, findSpaceKey, type Results } from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { LabelExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<LabelExpected> = {
  *"mcp-atlassian"({ expected: e }) {
    const spaceKey = yield* findSpaceKey(e, e.bySpaceName);
    const page = yield call("confluence_get_page", { title: e.title, space_key: spaceKey });
    const pageId = (page.body as { id: string }).id;
    const have = new Set(
      (page.body as { labels: Results<{ name: string }> }).labels.results.map((l) => l.name),
    );
    for (const name of e.requested)
      if (!have.has(name)) yield call("confluence_add_label", { page_id: pageId, name });
    yield call("confluence_get_labels", { page_id: pageId });
    return `Labelled "${e.title}".`;
  },
};
