/**
 * Converts an ADF document to Confluence storage format (XHTML), for reading an ADF-written page with
 * `body-format=storage`. The inverse of storage-to-adf for the nodes it covers; nodes with no storage
 * counterpart here (media, cards, statuses) keep their text so nothing readable is lost.
 */
import type { AdfDocument, AdfNode } from "./types.ts";

const PANEL_MACROS: Record<string, string> = {
  info: "info",
  note: "note",
  warning: "warning",
  success: "tip",
};

export function adfToStorage(doc: AdfDocument | AdfNode): string {
  return (doc.content ?? []).map(block).join("");
}

function block(node: AdfNode): string {
  const inner = () => (node.content ?? []).map(block).join("");
  switch (node.type) {
    case "paragraph":
      return `<p>${inlines(node.content)}</p>`;
    case "heading": {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level ?? 1)));
      return `<h${level}>${inlines(node.content)}</h${level}>`;
    }
    case "bulletList":
      return `<ul>${inner()}</ul>`;
    case "orderedList":
      return `<ol>${inner()}</ol>`;
    case "listItem":
      return `<li>${inner()}</li>`;
    case "blockquote":
      return `<blockquote>${inner()}</blockquote>`;
    case "rule":
      return "<hr />";
    case "codeBlock":
      return codeMacro(
        (node.content ?? []).map((n) => n.text ?? "").join(""),
        node.attrs?.language as string | undefined,
      );
    case "panel": {
      const name = PANEL_MACROS[String(node.attrs?.panelType ?? "info")] ?? "info";
      return `<ac:structured-macro ac:name="${name}"><ac:rich-text-body>${inner()}</ac:rich-text-body></ac:structured-macro>`;
    }
    case "expand":
    case "nestedExpand":
      return `<ac:structured-macro ac:name="expand"><ac:parameter ac:name="title">${escapeText(String(node.attrs?.title ?? ""))}</ac:parameter><ac:rich-text-body>${inner()}</ac:rich-text-body></ac:structured-macro>`;
    case "table":
      return `<table><tbody>${inner()}</tbody></table>`;
    case "tableRow":
      return `<tr>${inner()}</tr>`;
    case "tableHeader":
      return `<th>${inner()}</th>`;
    case "tableCell":
      return `<td>${inner()}</td>`;
    case "mediaSingle":
    case "mediaGroup":
    case "media":
      return "";
    default:
      return node.content ? inner() : inline(node) ? `<p>${inline(node)}</p>` : "";
  }
}

function codeMacro(text: string, language: string | undefined): string {
  const lang = language ? `<ac:parameter ac:name="language">${escapeText(language)}</ac:parameter>` : "";
  const cdata = text.replace(/]]>/g, "]]]]><![CDATA[>");
  return `<ac:structured-macro ac:name="code">${lang}<ac:plain-text-body><![CDATA[${cdata}]]></ac:plain-text-body></ac:structured-macro>`;
}

function inlines(nodes: AdfNode[] | undefined): string {
  return (nodes ?? []).map(inline).join("");
}

function inline(node: AdfNode): string {
  switch (node.type) {
    case "text":
      return withMarks(escapeText(node.text ?? ""), node.marks ?? []);
    case "hardBreak":
      return "<br />";
    case "mention":
      return `<ac:link><ri:user ri:account-id="${escapeAttr(String(node.attrs?.id ?? ""))}" /></ac:link>`;
    case "emoji":
      return escapeText(String(node.attrs?.text ?? node.attrs?.shortName ?? ""));
    case "inlineCard": {
      const url = escapeAttr(String(node.attrs?.url ?? ""));
      return url ? `<a href="${url}">${url}</a>` : "";
    }
    case "date": {
      const ms = Number(node.attrs?.timestamp);
      return Number.isFinite(ms) ? `<time datetime="${new Date(ms).toISOString().slice(0, 10)}" />` : "";
    }
    case "status":
      return escapeText(String(node.attrs?.text ?? ""));
    default:
      return inlines(node.content);
  }
}

function withMarks(html: string, marks: NonNullable<AdfNode["marks"]>): string {
  let out = html;
  for (const mark of marks) {
    if (mark.type === "strong") out = `<strong>${out}</strong>`;
    else if (mark.type === "em") out = `<em>${out}</em>`;
    else if (mark.type === "code") out = `<code>${out}</code>`;
    else if (mark.type === "underline") out = `<u>${out}</u>`;
    else if (mark.type === "strike") out = `<s>${out}</s>`;
    else if (mark.type === "subsup")
      out = mark.attrs?.type === "sup" ? `<sup>${out}</sup>` : `<sub>${out}</sub>`;
    else if (mark.type === "link") out = `<a href="${escapeAttr(String(mark.attrs?.href ?? ""))}">${out}</a>`;
    else if (mark.type === "textColor")
      out = `<span style="color: ${escapeAttr(String(mark.attrs?.color ?? ""))};">${out}</span>`;
  }
  return out;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}
