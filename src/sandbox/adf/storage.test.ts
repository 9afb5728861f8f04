import { describe, expect, it } from "vitest";
import { adfToStorage } from "./adf-to-storage.ts";
import { storageToAdf } from "./storage-to-adf.ts";
import { validateAdf } from "./validate.ts";
import { MAX_XHTML_DEPTH, parseXhtml } from "./xhtml.ts";

describe("parseXhtml", () => {
  it("parses nested elements, attributes, entities and CDATA", () => {
    const parsed = parseXhtml(
      '<p class="x">A &amp; B&nbsp;<a href="/x?a=1&amp;b=2">l</a></p><![CDATA[<raw>]]>',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.nodes).toEqual([
      {
        kind: "element",
        name: "p",
        attrs: { class: "x" },
        children: [
          { kind: "text", text: "A & B\u00a0" },
          {
            kind: "element",
            name: "a",
            attrs: { href: "/x?a=1&b=2" },
            children: [{ kind: "text", text: "l" }],
          },
        ],
      },
      { kind: "text", text: "<raw>", cdata: true },
    ]);
  });

  it("accepts void elements with or without the closing slash, and stray < as text", () => {
    expect(parseXhtml("<p>a<br>b<br/>c<hr></p><p>1 < 2</p>").ok).toBe(true);
  });

  it("reports a mismatched close tag with its position", () => {
    expect(parseXhtml("<p><strong>bold</p>")).toEqual({
      ok: false,
      message: "Error parsing xhtml: Unexpected close tag </p>; expected </strong>.\n at [row,col]: [1,16]",
    });
  });

  it("reports an unclosed element at the end", () => {
    const parsed = parseXhtml("<p>text");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.message).toMatch(
        /^Error parsing xhtml: Unexpected EOF; was expecting a close tag for element <p>/,
      );
  });

  it("reports a close tag with nothing open and an unterminated start tag", () => {
    const stray = parseXhtml("<p>x</p></div>");
    expect(stray.ok === false && stray.message).toMatch(/Unexpected close tag <\/div>; no element is open/);
    const cut = parseXhtml('<p class="x"');
    expect(cut.ok === false && cut.message).toMatch(/Unexpected EOF inside start tag <p>/);
  });
});

describe("storage nested deep", () => {
  const divs = (depth: number) => `${"<div>".repeat(depth)}x${"</div>".repeat(depth)}`;

  it("parses and converts nesting up to the limit", () => {
    const parsed = parseXhtml(divs(MAX_XHTML_DEPTH));
    expect(parsed.ok).toBe(true);
    expect(validateAdf(storageToAdf(divs(MAX_XHTML_DEPTH)))).toBeNull();
  });

  it("refuses one level more as Confluence words a storage error", () => {
    const parsed = parseXhtml(divs(MAX_XHTML_DEPTH + 1));
    expect(parsed).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Error parsing xhtml: elements nested deeper than 1000 levels/),
    });
    expect(parseXhtml(divs(50_000)).ok).toBe(false);
  });
});

describe("storageToAdf", () => {
  it("converts paragraphs, headings, marks, links and lists to a valid ADF document", () => {
    const doc = storageToAdf(
      '<h2>Title</h2><p>Hello <strong>bold <em>both</em></strong> <a href="https://x.test">link</a> <code>c</code></p>' +
        "<ul><li>one</li><li><p>two</p><ol><li>nested</li></ol></li></ul>",
    );
    expect(validateAdf(doc)).toBeNull();
    expect(doc.content[0]).toEqual({
      type: "heading",
      attrs: { level: 2 },
      content: [{ type: "text", text: "Title" }],
    });
    expect(doc.content[1]).toEqual({
      type: "paragraph",
      content: [
        { type: "text", text: "Hello " },
        { type: "text", text: "bold ", marks: [{ type: "strong" }] },
        { type: "text", text: "both", marks: [{ type: "strong" }, { type: "em" }] },
        { type: "text", text: " " },
        { type: "text", text: "link", marks: [{ type: "link", attrs: { href: "https://x.test" } }] },
        { type: "text", text: " " },
        { type: "text", text: "c", marks: [{ type: "code" }] },
      ],
    });
    const list = doc.content[2]!;
    expect(list.type).toBe("bulletList");
    expect(list.content?.[1]?.content?.map((n) => n.type)).toEqual(["paragraph", "orderedList"]);
  });

  it("turns the code macro and <pre> into code blocks, and loose text into a paragraph", () => {
    const doc = storageToAdf(
      'Intro<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">bash</ac:parameter>' +
        "<ac:plain-text-body><![CDATA[make  deploy]]></ac:plain-text-body></ac:structured-macro><pre>x = 1</pre>",
    );
    expect(doc.content).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "Intro" }] },
      { type: "codeBlock", attrs: { language: "bash" }, content: [{ type: "text", text: "make  deploy" }] },
      { type: "codeBlock", content: [{ type: "text", text: "x = 1" }] },
    ]);
  });

  it("keeps the text of a body that does not parse", () => {
    expect(storageToAdf("<p>broken").content).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "<p>broken" }] },
    ]);
  });

  it("gives an empty document for an empty body", () => {
    expect(storageToAdf("")).toEqual({ type: "doc", version: 1, content: [] });
  });
});

describe("adfToStorage", () => {
  it("renders blocks and marks as storage XHTML that parses", () => {
    const storage = adfToStorage({
      type: "doc",
      version: 1,
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "T<1>" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "a", marks: [{ type: "strong" }] },
            { type: "hardBreak" },
            {
              type: "text",
              text: "b",
              marks: [{ type: "link", attrs: { href: "https://x.test/?a=1&b=2" } }],
            },
          ],
        },
        {
          type: "bulletList",
          content: [
            { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "i" }] }] },
          ],
        },
        { type: "codeBlock", attrs: { language: "js" }, content: [{ type: "text", text: "a]]>b" }] },
        { type: "rule" },
      ],
    });
    expect(storage).toBe(
      "<h1>T&lt;1&gt;</h1>" +
        '<p><strong>a</strong><br /><a href="https://x.test/?a=1&amp;b=2">b</a></p>' +
        "<ul><li><p>i</p></li></ul>" +
        '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">js</ac:parameter><ac:plain-text-body><![CDATA[a]]]]><![CDATA[>b]]></ac:plain-text-body></ac:structured-macro>' +
        "<hr />",
    );
    expect(parseXhtml(storage).ok).toBe(true);
  });

  it("round-trips storage -> ADF -> storage for the supported subset", () => {
    const storage =
      '<h3>Plan</h3><p>Do <em>this</em> and <a href="https://x.test">that</a>.</p><ol><li><p>first</p></li></ol>' +
      "<table><tbody><tr><th><p>k</p></th><td><p>v</p></td></tr></tbody></table>";
    expect(adfToStorage(storageToAdf(storage))).toBe(storage);
  });

  it("renders mentions as user links that convert back to mentions", () => {
    const storage = adfToStorage({
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "mention", attrs: { id: "abc", text: "@A" } }] }],
    });
    expect(storage).toBe('<p><ac:link><ri:user ri:account-id="abc" /></ac:link></p>');
    expect(storageToAdf(storage).content[0]?.content).toEqual([{ type: "mention", attrs: { id: "abc" } }]);
  });
});
