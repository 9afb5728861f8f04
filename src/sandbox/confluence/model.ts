/**
 * Confluence records as the site stores them. Bodies keep the representation they were written in;
 * presenters convert on read when another `body-format` is asked for.
 */

export interface Space {
  id: string;
  key: string;
  name: string;
  description: string;
  authorId: string;
  createdAt: number;
  homepageId: string;
}

export type PageStatus = "current" | "draft" | "archived" | "trashed";

export interface PageBody {
  representation: "storage" | "atlas_doc_format";
  value: string;
}

export interface PageVersion {
  number: number;
  message: string;
  minorEdit: boolean;
  authorId: string;
  createdAt: number;
}

export interface Page {
  id: string;
  spaceId: string;
  parentId: string | null;
  title: string;
  status: PageStatus;
  authorId: string;
  ownerId: string;
  createdAt: number;
  position: number;
  version: PageVersion;
  body: PageBody;
}

/** A label attached to a page. Label ids are per (prefix, name), as in Confluence. */
export interface PageLabel {
  pageId: string;
  labelId: string;
  prefix: "global" | "my" | "team";
  name: string;
}
