/** confluence-page-create through the alias tool sets (src/scenarios/alias-solution.ts): both cover it. */
import {
  type AliasSolutions,
  CLOUD_ID as cloudId,
  findRovoSpace,
  findSpaceKey,
  type Results,
} from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { PageCreateExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<PageCreateExpected> = {
  *rovo({ expected: e }) {
    const space = yield* findRovoSpace(e, e.byKey);
    const parents = yield call("getPagesInConfluenceSpace", {
      cloudId,
      spaceId: space.id,
      title: e.parentTitle,
    });
    const parentId = (parents.body as Results<{ id: string }>).results[0]!.id;
    const created = yield call("createConfluencePage", {
      cloudId,
      spaceId: space.id,
      parentId,
      title: e.title,
      body: e.body,
    });
    const id = (created.body as { id: string }).id;
    yield call("getConfluencePage", { cloudId, pageId: id });
    return `Created "${e.title}".`;
  },
  *"mcp-atlassian"({ expected: e }) {
    const spaceKey = yield* findSpaceKey(e, !e.byKey);
    const parent = yield call("confluence_get_page", { title: e.parentTitle, space_key: spaceKey });
    const parentId = (parent.body as { id: string }).id;
    const created = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: e.body,
      parent_id: parentId,
    });
    yield call("confluence_get_page", { page_id: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
};
