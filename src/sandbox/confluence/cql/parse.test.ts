import { describe, expect, it } from "vitest";
import { CqlError, parseCql } from "./parse.ts";

describe("parseCql", () => {
  it("parses clauses with every operator, quoted and bare values", () => {
    expect(parseCql('type = page AND title ~ "Deploy \\"runbook\\"" AND label != draft').where).toEqual({
      kind: "and",
      left: {
        kind: "and",
        left: { kind: "clause", field: "type", op: "=", values: ["page"] },
        right: { kind: "clause", field: "title", op: "~", values: ['Deploy "runbook"'] },
      },
      right: { kind: "clause", field: "label", op: "!=", values: ["draft"] },
    });
    expect(parseCql("space NOT IN (ENG, 'OPS')").where).toEqual({
      kind: "clause",
      field: "space",
      op: "not in",
      values: ["ENG", "OPS"],
    });
    expect(parseCql("Space.Title !~ hand*").where).toMatchObject({ field: "space.title", op: "!~" });
  });

  it("binds NOT tighter than AND, and AND tighter than OR, unless parenthesised", () => {
    expect(parseCql("space = A OR space = B and not type = space").where).toMatchObject({
      kind: "or",
      right: { kind: "and", right: { kind: "not", expr: { field: "type" } } },
    });
    expect(parseCql("(space = A or space = B) AND type = page").where).toMatchObject({
      kind: "and",
      left: { kind: "or" },
    });
  });

  it("reads ORDER BY with directions, case-insensitively", () => {
    expect(parseCql("type=page order by lastModified desc, title").orderBy).toEqual([
      { field: "lastmodified", direction: "desc" },
      { field: "title", direction: "asc" },
    ]);
  });

  it.each([
    ["", "empty"],
    ["title", "expected an operator"],
    ['title = "open', "unterminated string"],
    ["title = a b", "unexpected token"],
    ["creator = currentUser()", "unknown field"],
    ["title = currentUser()", "unsupported function"],
    ["(type = page", "expected ')'"],
    ["space in (ENG,", "expected a value"],
    ["type = page ORDER BY author", "expected title, created or lastmodified"],
    ["title > 3", "unexpected '>'"],
  ])("rejects %j (%s)", (query, reason) => {
    let error: unknown;
    try {
      parseCql(query);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CqlError);
    expect((error as CqlError).message).toContain(`Could not parse cql : ${query}`);
    expect((error as CqlError).reason).toContain(reason);
  });
});
