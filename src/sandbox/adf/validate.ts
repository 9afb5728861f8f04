/**
 * ADF validation for rich-text fields (description, environment, comment body). Jira rejects anything
 * that is not an Atlassian Document with "Operation value must be an Atlassian Document"; deeper
 * problems (unknown node types, empty text) are named with the path of the bad node.
 */
import type { AdfDocument, AdfNode } from "./types.ts";

export const NOT_A_DOCUMENT =
  "Operation value must be an Atlassian Document (see the Atlassian Document Format)";

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
  "expand",
]);
const INLINE = new Set(["text", "hardBreak", "mention", "emoji", "inlineCard", "date", "status"]);
const CHILD = new Set(["listItem", "tableRow", "tableHeader", "tableCell", "media"]);
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
]);

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
  if (n.type === "text") {
    if (typeof n.text !== "string" || n.text.length === 0)
      return `Invalid ADF: ${path} text nodes need a non-empty 'text'.`;
    for (const mark of n.marks ?? [])
      if (!MARKS.has(mark?.type)) return `Invalid ADF: ${path} has unknown mark '${mark?.type}'.`;
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
