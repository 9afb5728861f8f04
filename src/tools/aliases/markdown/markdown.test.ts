import { describe, expect, it } from "vitest";
import type { AdfNode } from "../../../sandbox/adf/types.ts";
import { validateAdf } from "../../../sandbox/adf/validate.ts";
import { parseXhtml } from "../../../sandbox/adf/xhtml.ts";
import { parseInline } from "./inline-markdown.ts";
import { markdownToAdf } from "./markdown-to-adf.ts";
import { markdownToStorage } from "./markdown-to-storage.ts";

const text = (t: string, ...marks: string[]): AdfNode =>
  marks.length > 0
    ? { type: "text", text: t, marks: marks.map((type) => ({ type })) }
    : { type: "text", text: t };
const p = (...content: AdfNode[]): AdfNode => ({ type: "paragraph", content });

describe("inline Markdown", () => {
  it("reads bold, italic and code, nested marks and escapes", () => {
    expect(parseInline("a **b** _c_ `d*e*` \\*f\\*")).toEqual([
      text("a "),
      text("b", "strong"),
      text(" "),
      text("c", "em"),
      text(" "),
      text("d*e*", "code"),
      text(" *f*"),
    ]);
    expect(parseInline("*a **b** c*")).toEqual([
      text("a ", "em"),
      text("b", "em", "strong"),
      text(" c", "em"),
    ]);
  });

  it("reads links (with marks inside) and autolinks", () => {
    const href = { type: "link", attrs: { href: "https://x.io/a_b" } };
    expect(parseInline("see [the **doc**](https://x.io/a_b) or <https://x.io/a_b>")).toEqual([
      text("see "),
      { type: "text", text: "the ", marks: [href] },
      { type: "text", text: "doc", marks: [href, { type: "strong" }] },
      text(" or "),
      { type: "text", text: "https://x.io/a_b", marks: [href] },
    ]);
  });

  it("keeps snake_case, lone stars and unclosed delimiters literal", () => {
    expect(parseInline("call get_issue_key and 2 * 3 = 6 **open")).toEqual([
      text("call get_issue_key and 2 * 3 = 6 **open"),
    ]);
  });
});

describe("markdownToAdf", () => {
  it("reads headings, paragraphs with soft and hard breaks, rules and quotes", () => {
    const doc = markdownToAdf("# Title\n\nline one\nline two  \nline three\n\n---\n\n> quoted *text*");
    expect(doc.content).toEqual([
      { type: "heading", attrs: { level: 1 }, content: [text("Title")] },
      p(text("line one line two"), { type: "hardBreak" }, text("line three")),
      { type: "rule" },
      { type: "blockquote", content: [p(text("quoted "), text("text", "em"))] },
    ]);
    expect(validateAdf(doc)).toBeNull();
  });

  it("reads bullet and ordered lists, nested by indentation, and loose lists", () => {
    const doc = markdownToAdf("- one\n- two\n  1. a\n  2. b\n\n- three\n\n3. x\n4. y");
    expect(doc.content).toEqual([
      {
        type: "bulletList",
        content: [
          { type: "listItem", content: [p(text("one"))] },
          {
            type: "listItem",
            content: [
              p(text("two")),
              {
                type: "orderedList",
                content: [
                  { type: "listItem", content: [p(text("a"))] },
                  { type: "listItem", content: [p(text("b"))] },
                ],
              },
            ],
          },
          { type: "listItem", content: [p(text("three"))] },
        ],
      },
      {
        type: "orderedList",
        attrs: { order: 3 },
        content: [
          { type: "listItem", content: [p(text("x"))] },
          { type: "listItem", content: [p(text("y"))] },
        ],
      },
    ]);
    expect(validateAdf(doc)).toBeNull();
  });

  it("reads fenced and indented code verbatim", () => {
    const doc = markdownToAdf("```ts\nconst a = **b**;\n```\n\n    indented\n    code");
    expect(doc.content).toEqual([
      { type: "codeBlock", attrs: { language: "ts" }, content: [text("const a = **b**;")] },
      { type: "codeBlock", content: [text("indented\ncode")] },
    ]);
    expect(validateAdf(doc)).toBeNull();
  });

  it("gives an empty document for empty Markdown", () => {
    expect(markdownToAdf("  \n\n")).toEqual({ type: "doc", version: 1, content: [] });
  });
});

describe("markdownToStorage", () => {
  it("writes well-formed storage XHTML with escaped text", () => {
    const storage = markdownToStorage(
      "## Plan & <risks>\n\n- **ship** [it](https://x.io?a=1&b=2)\n\n```\nx < y\n```",
    );
    expect(storage).toBe(
      '<h2>Plan &amp; &lt;risks&gt;</h2><ul><li><p><strong>ship</strong> <a href="https://x.io?a=1&amp;b=2">it</a></p></li></ul>' +
        '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[x < y]]></ac:plain-text-body></ac:structured-macro>',
    );
    expect(parseXhtml(storage).ok).toBe(true);
  });

  it("keeps a plain sentence as one paragraph", () => {
    expect(markdownToStorage("Budget review for Q3, owners: A. Chen.")).toBe(
      "<p>Budget review for Q3, owners: A. Chen.</p>",
    );
  });
});

describe("Jira user mentions in Markdown", () => {
  it("turns [~accountid:...] into an ADF mention node and leaves other brackets as text", () => {
    expect(parseInline("[~accountid:abc123] please review")).toEqual([
      { type: "mention", attrs: { id: "abc123" } },
      text(" please review"),
    ]);
    expect(parseInline("[~nobody] stays")).toEqual([text("[~nobody] stays")]);
    expect(validateAdf(markdownToAdf("Hi [~accountid:abc123]"))).toBeNull();
  });
});

describe("Markdown on hostile input (linear time, bounded nesting)", () => {
  // Scanning ahead from every `[` was quadratic (1.8 s at 40k): a million would take many minutes, past
  // the test runner's timeout; linear scanning takes about a tenth of a second.
  it("reads a million unclosed brackets as one text node", () => {
    const md = "[".repeat(1_000_000);
    expect(markdownToAdf(md).content).toEqual([p(text(md))]);
  });

  it("reads deeply nested quotes and emphasis without exhausting the stack", () => {
    const quotes = markdownToAdf(`${">".repeat(5000)} x`);
    expect(validateAdf(quotes)).toBeNull();
    expect(() => JSON.stringify(quotes)).not.toThrow();
    const emphasis = parseInline(`${"*_".repeat(20_000)}x${"_*".repeat(20_000)}`);
    expect(emphasis.length).toBeGreaterThan(0);
    expect(() => markdownToAdf(`${"[".repeat(20_000)}x${"](u)".repeat(20_000)}`)).not.toThrow();
  });
});
