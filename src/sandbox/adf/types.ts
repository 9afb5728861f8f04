/** The Atlassian Document Format shapes the site stores and echoes. */
export interface AdfNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AdfNode[];
}

export interface AdfDocument {
  type: "doc";
  version: 1;
  content: AdfNode[];
}
