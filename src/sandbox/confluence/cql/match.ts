/**
 * Evaluating parsed CQL against the site's searchable entities: current pages and spaces. Each field
 * yields a list of values for an entity (empty where it does not apply, e.g. `label` of a space);
 * `=` / IN match a value case-insensitively, `~` matches when every word of the value (a trailing `*`
 * is a prefix) occurs among the words of a field value, and the negated operators are their opposites.
 */
import type { Site } from "../../site.ts";
import { bodyValue } from "../bodies.ts";
import type { Page, Space } from "../model.ts";
import { labelsOf } from "../store.ts";
import type { CqlExpr, CqlField, CqlQuery } from "./parse.ts";

/** A search candidate: a page with its space, or a space. */
export type CqlEntity = { kind: "page"; page: Page; space: Space } | { kind: "space"; space: Space };

/** Every entity a search can find: spaces by id, then current pages by id. */
export function searchableEntities(site: Site): CqlEntity[] {
  const byId = (a: { id: string }, b: { id: string }) => Number(a.id) - Number(b.id);
  const spaces = [...site.values("spaces")].sort(byId);
  const spaceOf = new Map(spaces.map((s) => [s.id, s]));
  const pages = [...site.values("pages")].filter((p) => p.status === "current").sort(byId);
  return [
    ...spaces.map((space): CqlEntity => ({ kind: "space", space })),
    ...pages.flatMap((page): CqlEntity[] => {
      const space = spaceOf.get(page.spaceId);
      return space ? [{ kind: "page", page, space }] : [];
    }),
  ];
}

/** The entities that satisfy a query, in its ORDER BY order (else the order given). */
export function runCql(site: Site, query: CqlQuery, entities: readonly CqlEntity[]): CqlEntity[] {
  const found = entities.filter((e) => matches(site, query.where, e));
  if (query.orderBy.length === 0) return found;
  return [...found].sort((a, b) => {
    for (const { field, direction } of query.orderBy) {
      const x = sortKey(a, field);
      const y = sortKey(b, field);
      const order = typeof x === "number" ? x - (y as number) : (x as string).localeCompare(y as string);
      if (order !== 0) return direction === "asc" ? order : -order;
    }
    return 0;
  });
}

function sortKey(e: CqlEntity, field: CqlQuery["orderBy"][number]["field"]): string | number {
  if (field === "title") return entityTitle(e).toLowerCase();
  if (e.kind === "space") return e.space.createdAt;
  return field === "created" ? e.page.createdAt : e.page.version.createdAt;
}

export function entityTitle(e: CqlEntity): string {
  return e.kind === "page" ? e.page.title : e.space.name;
}

/** The plain text of a page body (tags dropped, entities decoded), for `text ~` and excerpts. */
export function pageText(page: Page): string {
  return bodyValue(page.body, "storage")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function matches(site: Site, expr: CqlExpr, e: CqlEntity): boolean {
  if (expr.kind === "and") return matches(site, expr.left, e) && matches(site, expr.right, e);
  if (expr.kind === "or") return matches(site, expr.left, e) || matches(site, expr.right, e);
  if (expr.kind === "not") return !matches(site, expr.expr, e);
  const values = fieldValues(site, expr.field, e);
  const anyEqual = () => values.some((v) => expr.values.some((w) => v.toLowerCase() === w.toLowerCase()));
  const anyContains = () => values.some((v) => containsWords(v, expr.values[0]!));
  switch (expr.op) {
    case "=":
    case "in":
      return anyEqual();
    case "!=":
    case "not in":
      return !anyEqual();
    case "~":
      return anyContains();
    case "!~":
      return !anyContains();
  }
}

function fieldValues(site: Site, field: CqlField, e: CqlEntity): string[] {
  switch (field) {
    case "type":
      return [e.kind];
    case "space":
    case "space.key":
      return [e.space.key];
    case "space.title":
      return [e.space.name];
    case "title":
      return [entityTitle(e)];
    case "text":
    case "sitesearch":
      return e.kind === "page" ? [e.page.title, pageText(e.page)] : [e.space.name, e.space.description];
    case "id":
    case "content":
      return e.kind === "page" ? [e.page.id] : [];
    case "parent":
      return e.kind === "page" && e.page.parentId ? [e.page.parentId] : [];
    case "ancestor":
      return e.kind === "page" ? ancestorIds(site, e.page) : [];
    case "label":
      return e.kind === "page"
        ? labelsOf(site, e.page.id).map((l) => (l.prefix === "global" ? l.name : `${l.prefix}:${l.name}`))
        : [];
  }
}

function ancestorIds(site: Site, page: Page): string[] {
  const ids: string[] = [];
  let parentId = page.parentId;
  while (parentId && !ids.includes(parentId)) {
    ids.push(parentId);
    parentId = site.get("pages", parentId)?.parentId ?? null;
  }
  return ids;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}*]+/gu) ?? [];

/** Whether every word of `query` occurs in `text` (a word ending in `*` matches as a prefix). */
function containsWords(text: string, query: string): boolean {
  const have = words(text);
  const want = words(query);
  return (
    want.length > 0 &&
    want.every((w) =>
      w.endsWith("*") ? have.some((h) => h.startsWith(w.slice(0, -1))) : have.includes(w.replace(/\*/g, "")),
    )
  );
}
