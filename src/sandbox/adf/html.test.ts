import { describe, expect, it } from "vitest";
import { adfToHtml, adfToStorage } from "./adf-to-storage.ts";
import type { AdfDocument, AdfNode } from "./types.ts";
import { validateAdf } from "./validate.ts";

const doc = (...content: AdfNode[]): AdfDocument => ({ type: "doc", version: 1, content });
const para = (...content: AdfNode[]): AdfNode => ({ type: "paragraph", content });
const text = (value: string, marks: AdfNode["marks"] = []): AdfNode => ({ type: "text", text: value, marks });

describe("ADF as rendered HTML", () => {
  it("links only to web, mail and relative targets, and colours only with #rgb values", () => {
    const link = (href: string) => adfToHtml(doc(para(text("x", [{ type: "link", attrs: { href } }]))));
    expect(link("https://example.com/a?b=1&c")).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c">x</a></p>',
    );
    expect(link("mailto:a@example.com")).toBe('<p><a href="mailto:a@example.com">x</a></p>');
    expect(link("/browse/ENG-1")).toBe('<p><a href="/browse/ENG-1">x</a></p>');
    for (const bad of [
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\nscript:alert(1)",
      "data:text/html,x",
    ])
      expect(link(bad)).toBe("<p>x</p>");
    const card = adfToHtml(doc(para({ type: "inlineCard", attrs: { url: "javascript:alert(1)" } })));
    expect(card).toBe("<p>javascript:alert(1)</p>");
    const colour = (color: string) =>
      adfToHtml(doc(para(text("x", [{ type: "textColor", attrs: { color } }]))));
    expect(colour("#ff5630")).toBe('<p><span style="color: #ff5630;">x</span></p>');
    expect(colour("red;background:url(https://evil/x)")).toBe("<p>x</p>");
  });

  it("closes a date element with the day as its text; storage format keeps its own empty element", () => {
    const dated = doc(para({ type: "date", attrs: { timestamp: "1700000000000" } }, text(" after")));
    expect(adfToHtml(dated)).toBe('<p><time datetime="2023-11-14">2023-11-14</time> after</p>');
    expect(adfToStorage(dated)).toBe('<p><time datetime="2023-11-14" /> after</p>');
    // A timestamp past what a date holds (stored before validation refused it) is left out, not a crash.
    expect(adfToHtml(doc(para({ type: "date", attrs: { timestamp: "1e20" } })))).toBe("<p></p>");
  });
});

describe("ADF validation of headings and dates", () => {
  it("refuses a heading level that is not a whole number and a date that is not epoch milliseconds", () => {
    const heading = (level: unknown) => doc({ type: "heading", attrs: { level }, content: [text("H")] });
    expect(validateAdf(heading(2))).toBeNull();
    expect(validateAdf(heading(2.5))).toMatch(/attrs.level between 1 and 6/);
    const date = (timestamp: unknown) => doc(para({ type: "date", attrs: { timestamp } }));
    expect(validateAdf(date("1700000000000"))).toBeNull();
    expect(validateAdf(date(1700000000000))).toBeNull();
    for (const bad of ["1e20", "-5", "soon", "99999999999999999", undefined])
      expect(validateAdf(date(bad)), String(bad)).toMatch(/date needs attrs.timestamp/);
  });
});
