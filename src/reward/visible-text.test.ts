import { describe, expect, it } from "vitest";
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

  it("reads a page body in either representation and an ADF field the same way", () => {
    const doc = adf(
      para(text("Hello "), { type: "mention", attrs: { id: "a1", text: "@Ann" } }),
      para(text("Bye")),
    );
    expect(richText({ representation: "atlas_doc_format", value: JSON.stringify(doc) })).toBe(
      "Hello @Ann Bye",
    );
    expect(richText({ representation: "storage", value: "<p>Hello  @Ann</p>\n<p>Bye</p>" })).toBe(
      "Hello @Ann Bye",
    );
    expect(richText(doc)).toBe("Hello @Ann Bye");
    expect(richText(null)).toBe("");
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
