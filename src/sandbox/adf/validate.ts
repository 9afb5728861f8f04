/**
 * ADF validation for rich-text fields (description, environment, comment body, Confluence
 * atlas_doc_format). Jira rejects anything that is not an Atlassian Document with "Operation value must
 * be an Atlassian Document"; deeper problems (unknown node types and marks, empty text, attributes of the
 * wrong type) are named with the path of the bad node. What passes can be rendered in every format the
 * site answers (wiki markup, storage, HTML, text): `marks` is an array of known marks, `attrs` an object,
 * and the attributes a renderer shows as text are strings; other attributes are kept as sent (a table
 * cell's `colwidth` array, a smart link's `data`, Confluence's `__confluenceMetadata` on a link).
 */
import type { AdfDocument, AdfNode } from "./types.ts";

export const NOT_A_DOCUMENT =
  "Operation value must be an Atlassian Document (see the Atlassian Document Format)";

/** The node types of the ADF schema, by where they go (renderers show the last ones by their content). */
const BLOCK = new Set([
  "paragraph",
  "heading",
  "bulletList",
  "orderedList",
  "codeBlock",
  "blockquote",
  "rule",
  "panel",
  "table",
  "mediaSingle",
  "mediaGroup",
  "expand",
  "nestedExpand",
  "taskList",
  "decisionList",
  "layoutSection",
  "blockCard",
  "embedCard",
  "extension",
  "bodiedExtension",
]);
const INLINE = new Set([
  "text",
  "hardBreak",
  "mention",
  "emoji",
  "inlineCard",
  "date",
  "status",
  "mediaInline",
  "placeholder",
  "inlineExtension",
]);
const CHILD = new Set([
  "listItem",
  "tableRow",
  "tableHeader",
  "tableCell",
  "media",
  "taskItem",
  "decisionItem",
  "layoutColumn",
  "caption",
]);
const MARKS = new Set([
  "strong",
  "em",
  "strike",
  "code",
  "underline",
  "link",
  "subsup",
  "textColor",
  "backgroundColor",
  "annotation",
  "border",
]);

/** Attributes that renderers show as text (or use as a link or colour): strings when present. */
const TEXT_ATTRS: Record<string, readonly string[]> = {
  codeBlock: ["language"],
  panel: ["panelType"],
  expand: ["title"],
  mention: ["text"],
  emoji: ["shortName", "text", "id"],
  inlineCard: ["url"],
  status: ["text", "color"],
  link: ["href", "title"],
  textColor: ["color"],
  backgroundColor: ["color"],
  subsup: ["type"],
};

/** The latest instant a JavaScript date holds (ms); past it a date cannot be written out. */
const MAX_DATE_MS = 8.64e15;

/** An ADF date's timestamp: epoch milliseconds as a string of digits (a number is read the same way). */
function isTimestamp(value: unknown): boolean {
  const text = typeof value === "number" ? String(value) : value;
  return typeof text === "string" && /^\d{1,16}$/.test(text) && Number(text) <= MAX_DATE_MS;
}

/** Returns null for a valid document, else a message naming the problem. */
export function validateAdf(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return NOT_A_DOCUMENT;
  const doc = value as Partial<AdfDocument>;
  if (doc.type !== "doc" || doc.version !== 1 || !Array.isArray(doc.content)) return NOT_A_DOCUMENT;
  for (const [i, node] of doc.content.entries()) {
    const problem = validateNode(node, `content[${i}]`, "block");
    if (problem) return problem;
  }
  return null;
}

function validateNode(node: unknown, path: string, level: "block" | "inline" | "child"): string | null {
  if (typeof node !== "object" || node === null || typeof (node as AdfNode).type !== "string") {
    return `Invalid ADF: ${path} must be a node object with a type.`;
  }
  const n = node as AdfNode;
  const known = BLOCK.has(n.type) || INLINE.has(n.type) || CHILD.has(n.type);
  if (!known) return `Invalid ADF: ${path} has unknown node type '${n.type}'.`;
  if (level === "block" && INLINE.has(n.type))
    return `Invalid ADF: ${path} ('${n.type}') is an inline node where a block node is required.`;
  if (n.text !== undefined && typeof n.text !== "string")
    return `Invalid ADF: ${path}.text must be a string.`;
  const attrsProblem = validateAttrs(n.type, n.attrs, path);
  if (attrsProblem) return attrsProblem;
  if (n.type === "text") {
    if (typeof n.text !== "string" || n.text.length === 0)
      return `Invalid ADF: ${path} text nodes need a non-empty 'text'.`;
    const marksProblem = validateMarks(n.marks, path);
    if (marksProblem) return marksProblem;
  }
  if (n.type === "mention") {
    const id = n.attrs?.id;
    if (typeof id !== "string" || id.trim() === "")
      return `Invalid ADF: ${path} mention needs attrs.id (the accountId of the user mentioned).`;
  }
  if (n.type === "heading") {
    const level = n.attrs?.level;
    if (typeof level !== "number" || !Number.isInteger(level) || level < 1 || level > 6)
      return `Invalid ADF: ${path} heading needs attrs.level between 1 and 6.`;
  }
  if (n.type === "date" && !isTimestamp(n.attrs?.timestamp))
    return `Invalid ADF: ${path} date needs attrs.timestamp, milliseconds since 1970 as a string of digits.`;
  if (n.content !== undefined) {
    if (!Array.isArray(n.content)) return `Invalid ADF: ${path}.content must be an array.`;
    const childLevel =
      n.type === "paragraph" || n.type === "heading" || n.type === "codeBlock" ? "inline" : "child";
    for (const [i, child] of n.content.entries()) {
      const problem = validateNode(child, `${path}.content[${i}]`, childLevel);
      if (problem) return problem;
    }
  }
  return null;
}

function validateMarks(marks: unknown, path: string): string | null {
  if (marks === undefined) return null;
  if (!Array.isArray(marks)) return `Invalid ADF: ${path}.marks must be an array of marks.`;
  for (const [i, mark] of marks.entries()) {
    const type = typeof mark === "object" && mark !== null ? (mark as { type?: unknown }).type : undefined;
    if (typeof type !== "string" || !MARKS.has(type))
      return `Invalid ADF: ${path} has unknown mark '${type}'.`;
    const problem = validateAttrs(type, (mark as { attrs?: unknown }).attrs, `${path}.marks[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/** A node's or mark's attrs: an object, whose attributes shown as text are strings (see TEXT_ATTRS). */
function validateAttrs(type: string, attrs: unknown, path: string): string | null {
  if (attrs === undefined) return null;
  if (typeof attrs !== "object" || attrs === null || Array.isArray(attrs))
    return `Invalid ADF: ${path}.attrs must be an object.`;
  for (const key of TEXT_ATTRS[type] ?? []) {
    const value = (attrs as Record<string, unknown>)[key];
    if (value !== undefined && value !== null && typeof value !== "string")
      return `Invalid ADF: ${path}.attrs.${key} must be a string.`;
  }
  return null;
}
