import { describe, expect, it } from "vitest";
import { adfToWiki } from "./adf-to-wiki.ts";
import type { AdfNode } from "./types.ts";
import { validateAdf } from "./validate.ts";
import { MAX_LIST_DEPTH, wikiToAdf } from "./wiki-to-adf.ts";

const t = (text: string, ...marks: AdfNode["marks"] & object): AdfNode =>
  marks.length ? { type: "text", text, marks } : { type: "text", text };
const p = (...content: AdfNode[]): AdfNode => ({ type: "paragraph", content });
const doc = (...content: AdfNode[]) => ({ type: "doc" as const, version: 1 as const, content });

describe("wikiToAdf", () => {
  it("parses paragraphs, hard breaks and headings", () => {
    expect(wikiToAdf("h2. Title\nline one\nline two\n\nsecond")).toEqual(
      doc(
        { type: "heading", attrs: { level: 2 }, content: [t("Title")] },
        p(t("line one"), { type: "hardBreak" }, t("line two")),
        p(t("second")),
      ),
    );
  });

  it("parses bold, italic, monospace and links", () => {
    expect(wikiToAdf("a *b* _c_ {{d}} [e|https://x.io/e] [https://x.io]")).toEqual(
      doc(
        p(
          t("a "),
          t("b", { type: "strong" }),
          t(" "),
          t("c", { type: "em" }),
          t(" "),
          t("d", { type: "code" }),
          t(" "),
          t("e", { type: "link", attrs: { href: "https://x.io/e" } }),
          t(" "),
          t("https://x.io", { type: "link", attrs: { href: "https://x.io" } }),
        ),
      ),
    );
  });

  it("leaves stray markers and unsupported markup as plain text", () => {
    expect(wikiToAdf("2 * 3 = 6, snake_case_name, {color:red}x{color}")).toEqual(
      doc(p(t("2 * 3 = 6, snake_case_name, {color:red}x{color}"))),
    );
  });

  it("parses code blocks with a language, verbatim", () => {
    expect(wikiToAdf("{code:java}\nint *a* = 1;\n\nreturn;\n{code}")).toEqual(
      doc({ type: "codeBlock", attrs: { language: "java" }, content: [t("int *a* = 1;\n\nreturn;")] }),
    );
  });

  it("closes a code block on its opening line, keeping text after it as a paragraph", () => {
    expect(wikiToAdf("{code}x=1{code}")).toEqual(doc({ type: "codeBlock", content: [t("x=1")] }));
    expect(wikiToAdf("{code:sql}select 1{code} then\nnext line")).toEqual(
      doc(
        { type: "codeBlock", attrs: { language: "sql" }, content: [t("select 1")] },
        p(t("then"), { type: "hardBreak" }, t("next line")),
      ),
    );
    expect(wikiToAdf("{code}\na\nb{code} done")).toEqual(
      doc({ type: "codeBlock", content: [t("a\nb")] }, p(t("done"))),
    );
  });

  it("parses nested bullet and numbered lists", () => {
    const adf = wikiToAdf("* one\n** one.a\n* two\n# first");
    expect(adf).toEqual(
      doc(
        {
          type: "bulletList",
          content: [
            {
              type: "listItem",
              content: [
                p(t("one")),
                { type: "bulletList", content: [{ type: "listItem", content: [p(t("one.a"))] }] },
              ],
            },
            { type: "listItem", content: [p(t("two"))] },
          ],
        },
        {
          type: "orderedList",
          attrs: { order: 1 },
          content: [{ type: "listItem", content: [p(t("first"))] }],
        },
      ),
    );
    expect(validateAdf(adf)).toBeNull();
  });
});

describe("mentions", () => {
  const names: Record<string, string> = { "5b10ac8d82e05b22cc7d4ef5": "Priya Raman" };
  const displayName = (id: string) => names[id] ?? null;

  it("turns [~accountid:<id>] into a mention node with the person's @name, as Jira Cloud stores it", () => {
    expect(wikiToAdf("[~accountid:5b10ac8d82e05b22cc7d4ef5] please *review*", { displayName })).toEqual(
      doc(
        p(
          {
            type: "mention",
            attrs: { id: "5b10ac8d82e05b22cc7d4ef5", text: "@Priya Raman", accessLevel: "" },
          },
          t(" please "),
          t("review", { type: "strong" }),
        ),
      ),
    );
  });

  it("keeps the id of an account it does not know, any case of the keyword, and no marks on the node", () => {
    const adf = wikiToAdf("*hi [~AccountId:557058:abc-1]*", { displayName });
    expect(adf).toEqual(
      doc(
        p(t("hi ", { type: "strong" }), { type: "mention", attrs: { id: "557058:abc-1", accessLevel: "" } }),
      ),
    );
    expect(validateAdf(adf)).toBeNull();
  });

  it("leaves look-alikes as text: the server-only [~username] form, a mention with no id", () => {
    expect(wikiToAdf("ask [~jsmith] or [~accountid:]")).toEqual(doc(p(t("ask [~jsmith] or [~accountid:]"))));
  });

  it("renders a mention node back as [~accountid:<id>], and round-trips", () => {
    const wiki = "cc [~accountid:5b10ac8d82e05b22cc7d4ef5], see *notes*";
    const adf = wikiToAdf(wiki, { displayName });
    expect(adfToWiki(adf)).toBe(wiki);
    expect(wikiToAdf(adfToWiki(adf), { displayName })).toEqual(adf);
    expect(adfToWiki(doc(p({ type: "mention", attrs: { id: "x1", text: "@Ann" } })))).toBe("[~accountid:x1]");
  });
});

describe("adfToWiki", () => {
  it("writes unsupported nodes as their plain text", () => {
    const adf = doc(
      p(t("hi "), { type: "status", attrs: { text: "DONE" } }, t(" "), {
        type: "emoji",
        attrs: { shortName: ":smile:" },
      }),
      {
        type: "table",
        content: [{ type: "tableRow", content: [{ type: "tableCell", content: [p(t("cell"))] }] }],
      },
    );
    expect(adfToWiki(adf)).toBe("hi DONE :smile:\n\ncell");
  });

  it("handles an empty document and null", () => {
    expect(adfToWiki(doc())).toBe("");
    expect(adfToWiki(null)).toBe("");
  });
});

describe("round trip over the documented subset", () => {
  const samples = [
    "plain paragraph",
    "h1. Heading\n\nBody with *bold*, _italic_ and {{mono}}.",
    "line one\nline two",
    "* a\n* b\n** b1\n*** b1x\n\n# n1\n# n2",
    "{code:python}\nprint('hi')\n{code}",
    "{code}\nplain\n{code}",
    "See [the docs|https://example.com/docs] or [https://example.com].",
    "[*bold link*|https://x.io]",
  ];
  it.each(samples)("%j", (wiki) => {
    const adf = wikiToAdf(wiki);
    expect(validateAdf(adf)).toBeNull();
    expect(adfToWiki(adf)).toBe(wiki);
    expect(wikiToAdf(adfToWiki(adf))).toEqual(adf);
  });
});

describe("wikiToAdf on hostile input (linear time, bounded nesting)", () => {
  // A million characters: quadratic parsing (7 s at 100k, ~4x per doubling) would take many minutes,
  // past the test runner's timeout; linear parsing takes tens of milliseconds.
  it("reads a million characters of unclosed openers as one text node", () => {
    for (const wiki of ["[".repeat(1_000_000), "{{".repeat(500_000), "[a|".repeat(350_000)])
      expect(wikiToAdf(wiki)).toEqual(doc(p(t(wiki))));
  });

  it("parses many emphasis runs without recursing per match", () => {
    const adf = wikiToAdf(`${"*_".repeat(100_000)}x`);
    expect(adf.content).toHaveLength(1);
    expect(adf.content[0]!.content!.length).toBeGreaterThan(50_000);
  });

  it("keeps a list deeper than MAX_LIST_DEPTH as text, and reads one at the limit as a list", () => {
    const deep = `${"*".repeat(MAX_LIST_DEPTH + 1)} x`;
    expect(wikiToAdf(deep).content.map((n) => n.type)).toEqual(["paragraph"]);
    expect(() => JSON.stringify(wikiToAdf(`${"*".repeat(20_000)} x`))).not.toThrow();
    const atLimit = wikiToAdf(`${"*".repeat(MAX_LIST_DEPTH)} x`);
    expect(atLimit.content[0]!.type).toBe("bulletList");
    expect(validateAdf(atLimit)).toBeNull();
  });
});
