/**
 * Test helpers for Confluence operation tests: the v2 page bean and page list as the assertions read
 * them, and the seeded site's ENG and OPS spaces as getSpaces answers them.
 */
import type { Site } from "../../src/sandbox/site.ts";
import { call } from "./call.ts";

export interface PageBean {
  id: string;
  title: string;
  status: string;
  spaceId: string;
  parentId?: string;
  position: number;
  authorId: string;
  version: { number: number; message: string; authorId: string };
  body?: Record<string, { representation: string; value: string }>;
  labels?: { results: { name: string; prefix: string; id: string }[] };
  _links: { webui: string; editui: string; tinyui: string; base: string };
}

export interface PageList {
  results: PageBean[];
  _links: { next?: string; base: string };
}

export type SpaceBean = { id: string; key: string; homepageId: string };

/** The seeded site's ENG and OPS spaces. */
export function engAndOps(site: Site): { eng: SpaceBean; ops: SpaceBean } {
  const spaces = (call(site, "getSpaces").body as { results: SpaceBean[] }).results;
  return { eng: spaces.find((s) => s.key === "ENG")!, ops: spaces.find((s) => s.key === "OPS")! };
}
