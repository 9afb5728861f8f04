/**
 * ADF validation: what it refuses, and (a property) that every document it accepts renders in every
 * format the site answers, so no accepted write can make a later read fail.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adfToHtml, adfToStorage } from "./adf-to-storage.ts";
import { adfToWiki } from "./adf-to-wiki.ts";
import { adfToText } from "./text.ts";
import type { AdfDocument } from "./types.ts";
import { validateAdf } from "./validate.ts";

const doc = (...content: unknown[]) => ({ type: "doc", version: 1, content });
const paragraph = (...content: unknown[]) => ({ type: "paragraph", content });
const text = (extra: Record<string, unknown> = {}) => ({ type: "text", text: "hi", ...extra });

describe("validateAdf", () => {
  it.each([
    [
      "marks that are not an array",
      doc(paragraph(text({ marks: 5 }))),
      "content[0].content[0].marks must be",
    ],
    ["marks that are a string", doc(paragraph(text({ marks: "" }))), "content[0].content[0].marks must be"],
    ["a mark that is not an object", doc(paragraph(text({ marks: [null] }))), "unknown mark 'undefined'"],
    ["an unknown mark", doc(paragraph(text({ marks: [{ type: "blink" }] }))), "unknown mark 'blink'"],
    [
      "a link whose href is not a string",
      doc(paragraph(text({ marks: [{ type: "link", attrs: { href: 5 } }] }))),
      "marks[0].attrs.href must be a string",
    ],
    [
      "a colour that is an object",
      doc(paragraph(text({ marks: [{ type: "textColor", attrs: { color: { toString: 1 } } }] }))),
      "marks[0].attrs.color must be a string",
    ],
    [
      "a code block's language that is a number",
      doc({ type: "codeBlock", attrs: { language: 5 }, content: [text()] }),
      "content[0].attrs.language must be a string",
    ],
    [
      "attrs that are an array",
      doc({ type: "panel", attrs: [], content: [] }),
      "content[0].attrs must be an object",
    ],
    [
      "an expand title that is an object",
      doc({ type: "expand", attrs: { title: { toString: 1 } }, content: [] }),
      "content[0].attrs.title must be a string",
    ],
    [
      "text that is not a string",
      doc(paragraph({ type: "hardBreak", text: {} })),
      "content[0].content[0].text must",
    ],
  ])("refuses %s", (_, value, message) => {
    expect(validateAdf(value)).toContain(message);
  });

  it("accepts what the editors write: column widths, smart-link data, link metadata, tasks, layouts", () => {
    const cell = (attrs: Record<string, unknown>) => ({
      type: "tableCell",
      attrs,
      content: [paragraph(text())],
    });
    expect(
      validateAdf(
        doc(
          {
            type: "table",
            content: [{ type: "tableRow", content: [cell({ colspan: 1, rowspan: 1, colwidth: [200] })] }],
          },
          paragraph(
            { type: "inlineCard", attrs: { data: { "@type": "Document", name: "Spec" } } },
            text({
              marks: [
                {
                  type: "link",
                  attrs: { href: "https://x.example", __confluenceMetadata: { linkType: "page" } },
                },
              ],
            }),
          ),
          {
            type: "taskList",
            attrs: { localId: "t" },
            content: [{ type: "taskItem", attrs: { localId: "i", state: "TODO" }, content: [text()] }],
          },
          {
            type: "layoutSection",
            content: [{ type: "layoutColumn", attrs: { width: 50 }, content: [paragraph(text())] }],
          },
          paragraph(
            text({ marks: [{ type: "annotation", attrs: { id: "a", annotationType: "inlineComment" } }] }),
          ),
        ),
      ),
    ).toBeNull();
  });

  it("accepts plain attribute values, nulls included, and marks with attributes", () => {
    expect(
      validateAdf(
        doc(
          { type: "codeBlock", attrs: { language: null }, content: [text()] },
          {
            type: "panel",
            attrs: { panelType: "info", localId: 3, wide: true },
            content: [paragraph(text())],
          },
          paragraph(
            text({ marks: [{ type: "link", attrs: { href: "https://example.com" } }, { type: "strong" }] }),
          ),
        ),
      ),
    ).toBeNull();
  });

  it("accepts only documents every renderer can write out (property)", () => {
    const scalar = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null));
    const anyValue = fc.oneof(scalar, fc.constant({ toString: 1 }), fc.constant([]), fc.constant({}));
    const attrs = fc.option(
      fc.dictionary(
        fc.constantFrom(
          "language",
          "panelType",
          "title",
          "url",
          "text",
          "color",
          "href",
          "type",
          "level",
          "timestamp",
          "id",
          "shortName",
        ),
        anyValue,
      ),
      { nil: undefined },
    );
    const markType = fc.constantFrom("strong", "em", "link", "textColor", "subsup", "code", "blink");
    const marks = fc.oneof(
      fc.constant(undefined),
      anyValue,
      fc.array(fc.oneof(fc.record({ type: markType, attrs }, { requiredKeys: ["type"] }), anyValue), {
        maxLength: 3,
      }),
    );
    const types = [
      "paragraph",
      "heading",
      "bulletList",
      "listItem",
      "codeBlock",
      "blockquote",
      "panel",
      "expand",
      "text",
      "hardBreak",
      "mention",
      "emoji",
      "inlineCard",
      "date",
      "status",
      "table",
      "tableRow",
      "tableCell",
      "rule",
      "taskList",
      "taskItem",
      "layoutSection",
      "layoutColumn",
      "blockCard",
      "extension",
      "mediaInline",
      "placeholder",
      "caption",
    ];
    const { node } = fc.letrec((tie) => ({
      node: fc.record(
        {
          type: fc.constantFrom(...types),
          text: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 3 }), anyValue),
          attrs,
          marks,
          content: fc.oneof(
            { depthSize: "small" },
            fc.constant(undefined),
            fc.array(tie("node"), { maxLength: 3 }),
          ),
        },
        { requiredKeys: ["type"] },
      ),
    }));
    fc.assert(
      fc.property(fc.array(node, { maxLength: 3 }), (content) => {
        const value = doc(...content);
        if (validateAdf(value) !== null) return;
        const accepted = value as AdfDocument;
        expect(() => [
          adfToWiki(accepted),
          adfToStorage(accepted),
          adfToHtml(accepted),
          adfToText(accepted as never),
        ]).not.toThrow();
      }),
      { numRuns: 3000, seed: 20261205 },
    );
  });
});
