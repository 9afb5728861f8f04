import { describe, expect, it } from "vitest";
import { describeExpected, matchesExpected } from "./match-value.ts";
import { tableMatches } from "./rich-table.ts";
import { richText, storageText } from "./visible-text.ts";

const adf = (...content: unknown[]) => ({ type: "doc", version: 1, content });
const para = (...content: unknown[]) => ({ type: "paragraph", content });
const text = (t: string) => ({ type: "text", text: t });

describe("visible text", () => {
  it("reads storage as a reader sees it: no comments, macro parameters or hidden elements", () => {
    expect(storageText("<p>See below.</p><!-- The requested text -->")).toBe("See below.");
    expect(
      storageText('<p>Shown <span style="display: none">hidden</span><span hidden="">gone</span></p>'),
    ).toBe("Shown");
    expect(
      storageText(
        '<ac:structured-macro ac:name="info"><ac:parameter ac:name="title">secret</ac:parameter><ac:rich-text-body><p>Body</p></ac:rich-text-body></ac:structured-macro>',
      ),
    ).toBe("Body");
    expect(storageText("<p>Fish &amp; chips</p><p>Second</p>")).toBe("Fish & chips Second");
    expect(storageText("<p>unclosed")).toBe("");
  });

  it("reads a page body in either representation and an ADF field the same way, mentions apart", () => {
    const doc = adf(
      para(text("Hello "), { type: "mention", attrs: { id: "a1", text: "@Ann" } }),
      para(text("Bye")),
    );
    expect(richText({ representation: "atlas_doc_format", value: JSON.stringify(doc) })).toBe("Hello Bye");
    const storage = '<p>Hello  <ac:link><ri:user ri:account-id="a1"/></ac:link></p>\n<p>Bye</p>';
    expect(richText({ representation: "storage", value: storage })).toBe("Hello Bye");
    expect(richText(doc)).toBe("Hello Bye");
    const want = { visibleText: "Hello Bye", mentions: ["a1"] };
    expect(matchesExpected(want, "pages", "body", { representation: "storage", value: storage })).toBe(true);
    expect(matchesExpected(want, "comments", "body", doc)).toBe(true);
    expect(matchesExpected({ ...want, mentions: ["b2"] }, "comments", "body", doc)).toBe(false);
    expect(richText(null)).toBe("");
  });

  it("describes expected text with its mentions, and no dangling word when there are none", () => {
    expect(describeExpected({ visibleText: "Done", mentions: [] })).toBe('visible text "Done"');
    expect(describeExpected({ visibleText: "Done", mentions: ["acc-1"] })).toBe(
      'visible text "Done" mentioning acc-1',
    );
  });

  it("matches a rich-text table cell by cell, header first", () => {
    const storage = {
      representation: "storage",
      value: "<table><tr><th>Name</th><th>Role</th></tr><tr><td>Ann</td><td><p>Lead</p></td></tr></table>",
    };
    expect(tableMatches(storage, { header: ["Name", "Role"], rows: [["Ann", "Lead"]] })).toBe(true);
    expect(tableMatches(storage, { header: ["Name", "Role"], rows: [["Ann", "lead"]] })).toBe(false);
    expect(tableMatches(storage, { rows: [["Ann", "Lead"]] })).toBe(false);
  });
});
