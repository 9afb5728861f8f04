/** Confluence's page sort orders (`title`, `-created-date`, `child-position`, ...), ties broken by id. */
import type { Page } from "./model.ts";

const KEYS: Record<string, (p: Page) => number | string> = {
  title: (p) => p.title.toLowerCase(),
  "created-date": (p) => p.createdAt,
  "modified-date": (p) => p.version.createdAt,
  id: (p) => Number(p.id),
  "child-position": (p) => p.position,
};

export function sortPages(pages: readonly Page[], sort: string): Page[] {
  const key = KEYS[sort.replace(/^-/, "")] ?? KEYS.id!;
  const sign = sort.startsWith("-") ? -1 : 1;
  return [...pages].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return sign * (ka < kb ? -1 : ka > kb ? 1 : Number(a.id) - Number(b.id));
  });
}
