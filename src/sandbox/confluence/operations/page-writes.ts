/**
 * Confluence v2 page writes: createPage (200, version 1, under the space homepage unless a parent or
 * root-level is given) and updatePage (version must be current + 1, else the real 409; parent moves
 * within the space; title unique per space). Everything is checked before the one write.
 */
import { z } from "zod";
import { confluenceError } from "../../api-error.ts";
import { defineOperation } from "../../define-operation.ts";
import { numericId, qBool } from "../../params.ts";
import { EMPTY_BODY, pageBodyWriteSchema, parseBodyWrite } from "../bodies.ts";
import { NOT_FOUND } from "../lookup.ts";
import type { Page } from "../model.ts";
import { checkNoCycle, checkTitle, checkTitleFree, requireParent } from "../page-rules.ts";
import { presentPageSingle } from "../present.ts";
import { insertPage, nextPosition } from "../store.ts";

export const createPage = defineOperation({
  operationId: "createPage",
  api: "confluence",
  method: "POST",
  path: "/wiki/api/v2/pages",
  summary:
    "Creates a Confluence page in a space (under the space homepage unless parentId is given). Titles must be unique in the space.",
  effect: "write",
  status: 200,
  params: z.object({
    embedded: qBool().optional().describe("Create the page as embedded content (ignored)."),
    private: qBool().optional().describe("Create the page as private (ignored)."),
    "root-level": qBool()
      .optional()
      .describe(
        "true = create at the top of the space tree instead of under the homepage; no parentId then.",
      ),
  }),
  body: z.looseObject({
    spaceId: numericId().describe(
      "Id of the space to create the page in (from getSpaces; not the space key).",
    ),
    status: z.enum(["current", "draft"]).optional().describe("current (published, the default) or draft."),
    title: z
      .string()
      .optional()
      .describe("Page title; required unless status is draft; unique in the space."),
    parentId: numericId()
      .optional()
      .describe("Id of the parent page (same space); default the space homepage."),
    body: pageBodyWriteSchema.optional(),
    subtype: z.enum(["live"]).optional().describe("'live' for a live doc; omit for a page."),
  }),
  handler: (site, { params, body }, ctx) => {
    const space = site.get("spaces", body.spaceId);
    if (!space) throw confluenceError(404, `Space not found: there is no space with id ${body.spaceId}.`);
    const status = body.status ?? "current";
    const title = checkTitle(body.title, status);
    if (params["root-level"] && body.parentId !== undefined)
      throw confluenceError(
        400,
        "A value may not be supplied for 'parentId' when 'root-level' is true.",
        "INVALID_REQUEST_PARAMETER",
      );
    let parentId: string | null = null;
    if (body.parentId !== undefined) parentId = requireParent(site, body.parentId, space).id;
    else if (!params["root-level"] && site.get("pages", space.homepageId)) parentId = space.homepageId;
    if (status === "current") checkTitleFree(site, space.id, title);
    const stored = body.body ? parseBodyWrite(body.body) : EMPTY_BODY;
    const createdAt = site.now();
    const page = insertPage(site, {
      spaceId: space.id,
      parentId,
      title,
      status,
      authorId: ctx.accountId,
      ownerId: ctx.accountId,
      createdAt,
      version: { number: 1, message: "", minorEdit: false, authorId: ctx.accountId, createdAt },
      body: stored,
    });
    return presentPageSingle(site, page, ctx.baseUrl, {
      bodyFormat: body.body ? stored.representation : undefined,
    });
  },
});

export const updatePage = defineOperation({
  operationId: "updatePage",
  api: "confluence",
  method: "PUT",
  path: "/wiki/api/v2/pages/{id}",
  summary:
    "Updates a Confluence page's title, body, parent or status. Send version.number = current version + 1 (from getPageById).",
  effect: "write",
  status: 200,
  params: z.object({
    id: numericId().describe("The numeric id of the page to update."),
  }),
  body: z.looseObject({
    id: numericId().describe("The page id again (must equal the id in the path)."),
    status: z.enum(["current", "draft"]).describe("current to publish (usual), draft to keep a draft."),
    title: z.string().describe("The page title (send the current one to keep it); unique in the space."),
    spaceId: numericId().nullish().describe("The page's space id; pages cannot move between spaces."),
    parentId: numericId().nullish().describe("A new parent page id in the same space, to move the page."),
    ownerId: z.string().nullish().describe("accountId of a new page owner."),
    body: pageBodyWriteSchema,
    version: z
      .looseObject({
        number: z.number().int().describe("The current version number plus one."),
        message: z.string().optional().describe("Optional version comment."),
        minorEdit: z.boolean().optional(),
      })
      .describe("{number: current version + 1, message?}."),
  }),
  handler: (site, { params, body }, ctx) => {
    if (body.id !== params.id)
      throw confluenceError(
        400,
        `The id in the request body (${body.id}) does not match the page id in the path (${params.id}).`,
        "INVALID_REQUEST_PARAMETER",
      );
    const page = site.get("pages", params.id);
    if (!page || (page.status === "trashed" && body.status !== "current"))
      throw confluenceError(404, NOT_FOUND);
    if (page.status === "trashed") {
      // Restoring from the trash changes only the status (its title stayed reserved; checked all the same).
      checkTitleFree(site, page.spaceId, page.title, page.id);
      const restored: Page = { ...page, status: "current" };
      site.put("pages", page.id, restored);
      return presentPageSingle(site, restored, ctx.baseUrl);
    }
    const number = checkVersion(page, body.status, body.version.number);
    const title = checkTitle(body.title, body.status);
    const space = site.get("spaces", page.spaceId)!;
    if (body.spaceId && body.spaceId !== page.spaceId) {
      if (!site.get("spaces", body.spaceId)) throw confluenceError(404, NOT_FOUND);
      throw confluenceError(
        400,
        `Moving a page to a different space is not supported; spaceId must be the page's space (${page.spaceId}).`,
        "INVALID_REQUEST_PARAMETER",
      );
    }
    let parentId = page.parentId;
    let position = page.position;
    if (body.parentId && body.parentId !== page.parentId) {
      const parent = requireParent(site, body.parentId, space);
      checkNoCycle(site, page, parent);
      parentId = parent.id;
      position = nextPosition(site, page.spaceId, parent.id);
    }
    if (body.ownerId && !site.get("users", body.ownerId))
      throw confluenceError(
        400,
        `No user found with accountId ${body.ownerId}.`,
        "INVALID_REQUEST_PARAMETER",
      );
    if (body.status === "current") checkTitleFree(site, page.spaceId, title, page.id);
    const stored = parseBodyWrite(body.body);
    const updated: Page = {
      ...page,
      title,
      status: body.status,
      parentId,
      position,
      ownerId: body.ownerId ?? page.ownerId,
      body: stored,
      version: {
        number,
        message: body.version.message ?? "",
        minorEdit: body.version.minorEdit ?? false,
        authorId: ctx.accountId,
        createdAt: site.now(),
      },
    };
    site.put("pages", page.id, updated);
    return presentPageSingle(site, updated, ctx.baseUrl, { bodyFormat: stored.representation });
  },
});

/**
 * The version number the update will have. A published page needs current + 1 (else Confluence's 409);
 * a draft stays at version 1 while it is a draft and may be published as version 1 or 2.
 */
function checkVersion(page: Page, status: "current" | "draft", provided: number): number {
  if (page.status === "draft") {
    const allowed = status === "draft" ? [1] : [1, 2];
    if (!allowed.includes(provided))
      throw confluenceError(
        409,
        `Version must be ${allowed.join(" or ")} when ${status === "draft" ? "updating" : "publishing"} a draft. Provided version: [${provided}]`,
      );
    return provided;
  }
  if (status === "draft")
    throw confluenceError(
      400,
      "A published page cannot be turned back into a draft here; update it with status 'current'.",
      "INVALID_REQUEST_PARAMETER",
    );
  if (provided !== page.version.number + 1)
    throw confluenceError(
      409,
      `Version must be incremented when updating a page. Current Version: [${page.version.number}]. Provided version: [${provided}]`,
    );
  return provided;
}
