import { describe, expect, it } from "vitest";
import { storageToAdf } from "../sandbox/adf/storage-to-adf.ts";
import { blocksMatch, blocksOf } from "./rich-blocks.ts";

const storage = (value: string) => ({ representation: "storage", value });
const section = { before: "Intro text.", blocks: [{ heading: "Next steps" }, { paragraph: "Ship it." }] };

describe("blocks expectations", () => {
  it("read the top-level blocks of storage and ADF alike, skipping what a reader cannot see", () => {
    const value = "<p>Intro text.</p><p></p><h2>Next steps</h2><p>Ship <strong>it</strong>.</p>";
    const want = [
      { kind: "paragraph", text: "Intro text." },
      { kind: "heading", level: 2, text: "Next steps" },
      { kind: "paragraph", text: "Ship it." },
    ];
    expect(blocksOf(storage(value))).toEqual(want);
    expect(blocksOf(storageToAdf(value))).toEqual(want);
    expect(
      blocksOf({ representation: "atlas_doc_format", value: JSON.stringify(storageToAdf(value)) }),
    ).toEqual(want);
    expect(blocksOf(storage("<p>unclosed"))).toBeNull();
  });

  it("pass the section after the kept body in any representation, at any heading level", () => {
    for (const v of [
      "<p>Intro text.</p><h2>Next steps</h2><p>Ship it.</p>",
      "<p>Intro text.</p><h3>Next steps</h3><p>Ship it.</p>",
    ]) {
      expect(blocksMatch(storage(v), section), v).toBe(true);
      expect(blocksMatch(storageToAdf(v), section), v).toBe(true);
    }
    expect(blocksMatch(storage("<h2>Next steps</h2><p>Ship it.</p>"), { ...section, before: "" })).toBe(true);
  });

  it.each([
    [
      "a bold paragraph for the heading",
      "<p>Intro text.</p><p><strong>Next steps</strong></p><p>Ship it.</p>",
    ],
    ["a plain paragraph for the heading", "<p>Intro text.</p><p>Next steps</p><p>Ship it.</p>"],
    ["heading and paragraph merged", "<p>Intro text.</p><p>Next steps Ship it.</p>"],
    ["an extra paragraph after", "<p>Intro text.</p><h2>Next steps</h2><p>Ship it.</p><p>Thanks.</p>"],
    ["the kept body changed", "<p>Intro.</p><h2>Next steps</h2><p>Ship it.</p>"],
    [
      "hidden heading text",
      '<p>Intro text.</p><h2><span style="display:none">Next steps</span></h2><p>Ship it.</p>',
    ],
  ])("fail %s", (_why, v) => {
    expect(blocksMatch(storage(v), section)).toBe(false);
  });

  it("hold a body that is a single table, and nothing else", () => {
    const table = { blocks: [{ table: { header: ["Key"], rows: [["ENG-1"]] } }] };
    const t = "<table><tbody><tr><th>Key</th></tr><tr><td>ENG-1</td></tr></tbody></table>";
    expect(blocksMatch(storage(t), table)).toBe(true);
    expect(blocksMatch(storageToAdf(t), table)).toBe(true);
    expect(blocksMatch(storage(`<p>Report</p>${t}`), table)).toBe(false);
    expect(blocksMatch(storage(t.replace("ENG-1", "ENG-2")), table)).toBe(false);
    expect(blocksMatch(storage(`${t}${t}`), table)).toBe(false);
  });

  it("checks a heading's level when the expectation gives one", () => {
    const v = storage("<h3>Next steps</h3>");
    expect(blocksMatch(v, { blocks: [{ heading: "Next steps", level: 3 }] })).toBe(true);
    expect(blocksMatch(v, { blocks: [{ heading: "Next steps", level: 2 }] })).toBe(false);
  });
});
