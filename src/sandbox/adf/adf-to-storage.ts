/**
 * Converts an ADF document to markup in two flavours that differ only in a few nodes:
 *
 * - Confluence storage format (XHTML: `adfToStorage`), for reading an ADF-written page with
 *   `body-format=storage`; the inverse of storage-to-adf for the nodes it covers;
 * - rendered HTML (`adfToHtml`), what Jira answers as a comment's `renderedBody` and in an issue's
 *   `renderedFields`: code, panels, expands and mentions as plain HTML instead of storage macros.
 *
 * Nodes with no counterpart here (media, cards, statuses) keep their text so nothing readable is lost.
 */
import type { AdfDocument, AdfNode } from "./types.ts";

/** How a flavour writes the nodes that differ between storage format and HTML. */
interface Flavour {
  code(text: string, language: string | undefined): string;
  panel(type: string, inner: string): string;
  expand(title: string, inner: string): string;
  mention(accountId: string, text: string): string;
  /** A date (a valid instant, `YYYY-MM-DD`). */
  date(day: string): string;
  /** A link target as it may be written, or null to write the text without a link. */
  href(url: string): string | null;
  /** A text colour as it may be written, or null to write the text without one. */
  color(value: string): string | null;
}

const PANEL_MACROS: Record<string, string> = {
  info: "info",
  note: "note",
  warning: "warning",
  success: "tip",
};

const STORAGE: Flavour = {
  code: codeMacro,
  panel: (type, inner) => {
    const name = PANEL_MACROS[type] ?? "info";
    return `<ac:structured-macro ac:name="${name}"><ac:rich-text-body>${inner}</ac:rich-text-body></ac:structured-macro>`;
  },
  expand: (title, inner) =>
    `<ac:structured-macro ac:name="expand"><ac:parameter ac:name="title">${escapeText(title)}</ac:parameter><ac:rich-text-body>${inner}</ac:rich-text-body></ac:structured-macro>`,
  mention: (accountId) => `<ac:link><ri:user ri:account-id="${escapeAttr(accountId)}" /></ac:link>`,
  date: (day) => `<time datetime="${day}" />`,
  href: (url) => url,
  color: (value) => value,
};

/** Link schemes rendered HTML may carry (a `javascript:` link would run in whoever shows it). */
const SAFE_URL = /^(https?:|mailto:|[/#?]|[^:]*$)/i;

const HTML: Flavour = {
  code: (text, language) =>
    `<pre><code${language ? ` class="language-${escapeAttr(language)}"` : ""}>${escapeText(text)}</code></pre>`,
  panel: (type, inner) => `<div class="panel panel-${escapeAttr(type)}">${inner}</div>`,
  expand: (title, inner) => `<details><summary>${escapeText(title)}</summary>${inner}</details>`,
  mention: (accountId, text) =>
    `<a class="user-hover" data-account-id="${escapeAttr(accountId)}">${escapeText(text)}</a>`,
  date: (day) => `<time datetime="${day}">${day}</time>`,
  href: (url) => (SAFE_URL.test(url.trim()) ? url.trim() : null),
  color: (value) => (/^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(value) ? value : null),
};

export function adfToStorage(doc: AdfDocument | AdfNode): string {
  return blocks(doc.content, STORAGE);
}

export function adfToHtml(doc: AdfDocument | AdfNode): string {
  return blocks(doc.content, HTML);
}

function blocks(nodes: AdfNode[] | undefined, flavour: Flavour): string {
  return (nodes ?? []).map((node) => block(node, flavour)).join("");
}

function block(node: AdfNode, flavour: Flavour): string {
  const inner = () => blocks(node.content, flavour);
  const inlines = (nodes: AdfNode[] | undefined) => inlinesOf(nodes, flavour);
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
      return flavour.code(
        (node.content ?? []).map((n) => n.text ?? "").join(""),
        node.attrs?.language as string | undefined,
      );
    case "panel":
      return flavour.panel(String(node.attrs?.panelType ?? "info"), inner());
    case "expand":
    case "nestedExpand":
      return flavour.expand(String(node.attrs?.title ?? ""), inner());
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
    default: {
      if (node.content) return inner();
      const text = inline(node, flavour);
      return text ? `<p>${text}</p>` : "";
    }
  }
}

function codeMacro(text: string, language: string | undefined): string {
  const lang = language ? `<ac:parameter ac:name="language">${escapeText(language)}</ac:parameter>` : "";
  const cdata = text.replace(/]]>/g, "]]]]><![CDATA[>");
  return `<ac:structured-macro ac:name="code">${lang}<ac:plain-text-body><![CDATA[${cdata}]]></ac:plain-text-body></ac:structured-macro>`;
}

function inlinesOf(nodes: AdfNode[] | undefined, flavour: Flavour): string {
  return (nodes ?? []).map((node) => inline(node, flavour)).join("");
}

function inline(node: AdfNode, flavour: Flavour): string {
  switch (node.type) {
    case "text":
      return withMarks(escapeText(node.text ?? ""), node.marks ?? [], flavour);
    case "hardBreak":
      return "<br />";
    case "mention":
      return flavour.mention(String(node.attrs?.id ?? ""), String(node.attrs?.text ?? ""));
    case "emoji":
      return escapeText(String(node.attrs?.text ?? node.attrs?.shortName ?? ""));
    case "inlineCard": {
      const url = String(node.attrs?.url ?? "");
      const href = url ? flavour.href(url) : null;
      return href !== null ? `<a href="${escapeAttr(href)}">${escapeText(url)}</a>` : escapeText(url);
    }
    case "date": {
      const ms = Number(node.attrs?.timestamp);
      // Past what a date holds (validation refuses such input; anything stored before is skipped).
      return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15
        ? flavour.date(new Date(ms).toISOString().slice(0, 10))
        : "";
    }
    case "status":
      return escapeText(String(node.attrs?.text ?? ""));
    default:
      return inlinesOf(node.content, flavour);
  }
}

function withMarks(html: string, marks: NonNullable<AdfNode["marks"]>, flavour: Flavour): string {
  let out = html;
  for (const mark of marks) {
    if (mark.type === "strong") out = `<strong>${out}</strong>`;
    else if (mark.type === "em") out = `<em>${out}</em>`;
    else if (mark.type === "code") out = `<code>${out}</code>`;
    else if (mark.type === "underline") out = `<u>${out}</u>`;
    else if (mark.type === "strike") out = `<s>${out}</s>`;
    else if (mark.type === "subsup")
      out = mark.attrs?.type === "sup" ? `<sup>${out}</sup>` : `<sub>${out}</sub>`;
    else if (mark.type === "link") {
      const href = flavour.href(String(mark.attrs?.href ?? ""));
      if (href !== null) out = `<a href="${escapeAttr(href)}">${out}</a>`;
    } else if (mark.type === "textColor") {
      const color = flavour.color(String(mark.attrs?.color ?? ""));
      if (color !== null) out = `<span style="color: ${escapeAttr(color)};">${out}</span>`;
    }
  }
  return out;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}
