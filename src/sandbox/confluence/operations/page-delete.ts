/**
 * Confluence v2 deletePage, the three steps Cloud documents:
 *
 * - a published page (current or archived) goes to the trash (status `trashed`; `updatePage` with
 *   `status: current` restores it). Its children move up to its parent, after that parent's own
 *   children, as Confluence does when a page is deleted without its descendants;
 * - `purge=true` removes a trashed page for good (with its labels); on a page not in the trash it is a 400;
 * - `draft=true` removes a draft for good (discarded drafts skip the trash); on a page that is not a
 *   draft, and without it on a draft, the page is not found.
 *
 * A space's homepage cannot be deleted (400): new pages go under it, so the space would lose its tree.
 * 204 with no body; everything is checked before anything changes.
 */
import { z } from "zod";
import { confluenceError } from "../../api-error.ts";
import { defineOperation } from "../../define-operation.ts";
import { numericId, qBool } from "../../params.ts";
import type { Site } from "../../site.ts";
import { NOT_FOUND } from "../lookup.ts";
import type { Page } from "../model.ts";
import { labelKey, labelsOf, nextPosition, siblingsOf } from "../store.ts";

export const HOMEPAGE = "A space's homepage cannot be deleted; it is the root of the space's page tree.";
export const NOT_TRASHED = "A page can be purged only from the trash: delete it first, then purge it.";

export const deletePage = defineOperation({
  operationId: "deletePage",
  api: "confluence",
  method: "DELETE",
  path: "/wiki/api/v2/pages/{id}",
  summary:
    "Deletes a Confluence page: moves it to the trash (its children move up to its parent); purge=true then removes a trashed page for good, draft=true removes a draft.",
  effect: "write",
  status: 204,
  params: z.object({
    id: numericId().describe("The numeric id of the page."),
    purge: qBool().optional().describe("true: remove a page that is already in the trash, for good."),
    draft: qBool().optional().describe("true: remove a draft page, for good (drafts skip the trash)."),
  }),
  handler: (site, { params }) => {
    const page = site.get("pages", params.id);
    if (!page) throw confluenceError(404, NOT_FOUND);
    if (site.get("spaces", page.spaceId)?.homepageId === page.id)
      throw confluenceError(400, HOMEPAGE, "INVALID_REQUEST_PARAMETER");
    if (params.draft) {
      if (page.status !== "draft") throw confluenceError(404, NOT_FOUND);
      removeForGood(site, page);
    } else if (params.purge) {
      if (page.status === "draft") throw confluenceError(404, NOT_FOUND);
      if (page.status !== "trashed") throw confluenceError(400, NOT_TRASHED, "INVALID_REQUEST_PARAMETER");
      removeForGood(site, page);
    } else {
      if (page.status !== "current" && page.status !== "archived") throw confluenceError(404, NOT_FOUND);
      moveChildrenUp(site, page);
      site.put("pages", page.id, { ...page, status: "trashed" });
    }
    return undefined;
  },
});

/** The page's children (every status) become its parent's, appended in their own order. */
function moveChildrenUp(site: Site, page: Page): void {
  const children = siblingsOf(site, page.spaceId, page.id).sort((a, b) => a.position - b.position);
  let position = nextPosition(site, page.spaceId, page.parentId);
  for (const child of children)
    site.put("pages", child.id, { ...child, parentId: page.parentId, position: position++ });
}

function removeForGood(site: Site, page: Page): void {
  moveChildrenUp(site, page); // a draft's or a trashed page's children (none are left under a trashed one)
  for (const label of labelsOf(site, page.id))
    site.remove("pageLabels", labelKey(page.id, label.prefix, label.name));
  site.remove("pages", page.id);
}
