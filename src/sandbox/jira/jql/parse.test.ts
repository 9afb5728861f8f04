import { describe, expect, it } from "vitest";
import { ApiError } from "../../api-error.ts";
import type { Node, Operand } from "./ast.ts";
import { parseJql } from "./parse.ts";

/** A compact rendering of a tree: clauses as `field op value`, groups in brackets. */
function show(node: Node | null): string {
  if (!node) return "-";
  if (node.kind === "not") return `NOT(${show(node.child)})`;
  if (node.kind === "and" || node.kind === "or")
    return `${node.kind.toUpperCase()}[${node.children.map(show).join(", ")}]`;
  if (node.kind === "history") {
    const parts = [node.field, node.operator, ...(node.operand ? [item(node.operand)] : [])];
    for (const p of node.predicates) parts.push(p.kind.toUpperCase(), item(p.operand));
    return parts.join(" ");
  }
  return `${node.field} ${node.operator} ${item(node.operand)}`;
}

function item(i: Operand): string {
  return i.kind === "value"
    ? i.quoted
      ? `"${i.text}"`
      : i.text
    : i.kind === "empty"
      ? "EMPTY"
      : i.kind === "function"
        ? `${i.name}(${i.args.join(",")})`
        : `(${i.items.map(item).join(",")})`;
}

function syntaxError(text: string): string[] {
  try {
    parseJql(text);
  } catch (error) {
    if (error instanceof ApiError && "errorMessages" in error.body) {
      expect(error.status).toBe(400);
      expect(error.body.errors).toEqual({});
      return error.body.errorMessages;
    }
    throw error;
  }
  throw new Error(`expected ${text} to fail`);
}

describe("parseJql", () => {
  it("binds AND tighter than OR", () => {
    expect(show(parseJql("a = 1 OR b = 2 AND c = 3").where)).toBe("OR[a = 1, AND[b = 2, c = 3]]");
    expect(show(parseJql("a = 1 AND b = 2 OR c = 3").where)).toBe("OR[AND[a = 1, b = 2], c = 3]");
  });

  it("binds NOT tighter than AND, and parentheses override precedence", () => {
    expect(show(parseJql("NOT a = 1 AND b = 2").where)).toBe("AND[NOT(a = 1), b = 2]");
    expect(show(parseJql("NOT (a = 1 AND b = 2)").where)).toBe("NOT(AND[a = 1, b = 2])");
    expect(show(parseJql("(a = 1 OR b = 2) AND c = 3").where)).toBe("AND[OR[a = 1, b = 2], c = 3]");
    expect(show(parseJql("not not a = 1").where)).toBe("NOT(NOT(a = 1))");
  });

  it("reads the symbolic operators &&, ||, & , | and !", () => {
    expect(show(parseJql("a = 1 && b = 2 || !c = 3 & d = 4 | e = 5").where)).toBe(
      "OR[AND[a = 1, b = 2], AND[NOT(c = 3), d = 4], e = 5]",
    );
  });

  it("reads keywords in any case", () => {
    expect(show(parseJql("a In (x) aNd b NoT iN (y) Or c iS eMpTy oR d Is NoT NuLl").where)).toBe(
      "OR[AND[a in (x), b not in (y)], c is EMPTY, d is not EMPTY]",
    );
  });

  it("reads every operator", () => {
    const ops = ["=", "!=", "~", "!~", ">", ">=", "<", "<="];
    for (const op of ops) expect(show(parseJql(`f ${op} v`).where)).toBe(`f ${op} v`);
  });

  it("reads lists, functions with arguments, EMPTY in lists and quoted field names", () => {
    expect(show(parseJql('status in ("To Do", Done, 3)').where)).toBe('status in ("To Do",Done,3)');
    expect(show(parseJql("created >= startOfDay(-1d) AND assignee in (currentUser(), EMPTY)").where)).toBe(
      "AND[created >= startOfDay(-1d), assignee in (currentUser(),EMPTY)]",
    );
    expect(show(parseJql('"Story Points" > 3').where)).toBe("Story Points > 3");
    expect(show(parseJql("x = f('a b', c)").where)).toBe("x = f(a b,c)");
  });

  it("reads ORDER BY with several fields and directions", () => {
    const query = parseJql("project = ENG order BY priority DESC, created, key asc");
    expect(query.orderBy.map((k) => [k.field, k.direction])).toEqual([
      ["priority", "desc"],
      ["created", undefined],
      ["key", "asc"],
    ]);
  });

  it("reads the history operators WAS [NOT] [IN] and CHANGED with their predicates", () => {
    expect(show(parseJql('status WAS "In Progress"').where)).toBe('status was "In Progress"');
    expect(show(parseJql("status was not in (Done, 3) BEFORE -1d").where)).toBe(
      "status was not in (Done,3) BEFORE -1d",
    );
    expect(show(parseJql("assignee WAS IN (a) BY currentUser() DURING ('2026-01-01', now())").where)).toBe(
      'assignee was in (a) BY currentUser() DURING ("2026-01-01",now())',
    );
    expect(
      show(parseJql("status changed FROM Open TO Done after 2026-01-01 on -2d by (x, y) AND a = 1").where),
    ).toBe("AND[status changed FROM Open TO Done AFTER 2026-01-01 ON -2d BY (x,y), a = 1]");
    expect(show(parseJql("NOT assignee CHANGED ORDER BY key").where)).toBe("NOT(assignee changed)");
  });

  it("leaves the restriction empty for an empty query or one with only ORDER BY", () => {
    expect(parseJql("").where).toBeNull();
    expect(parseJql("   ").where).toBeNull();
    const query = parseJql("ORDER BY key DESC");
    expect(query.where).toBeNull();
    expect(query.orderBy).toHaveLength(1);
  });

  it.each([
    ["project = ENG AND", "Error in the JQL Query: Expecting a field name at the end of the query."],
    [
      "project =",
      "Error in JQL Query: Expecting either a value, list or function before the end of the query.",
    ],
    [
      "project = ENG AND status = = Done",
      "Error in JQL Query: Expecting either a value, list or function but got '='. You must surround '=' in quotation marks to use it as a value. (line 1, character 28)",
    ],
    [
      "project = AND status = Done",
      "Error in JQL Query: Expecting either a value, list or function but got 'AND'. You must surround 'AND' in quotation marks to use it as a value. (line 1, character 11)",
    ],
    [
      "project = ENG status",
      "Error in the JQL Query: Expecting either 'OR' or 'AND' but got 'status'. (line 1, character 15)",
    ],
    [
      "project = ENG AND (status = Done",
      "Error in the JQL Query: Expecting ')' before the end of the query.",
    ],
    ["project in (ENG, OPS", "Error in the JQL Query: Expecting ')' before the end of the query."],
    ["project in (ENG OPS)", "Error in the JQL Query: Expecting ')' but got 'OPS'. (line 1, character 17)"],
    [
      "project in ()",
      "Error in JQL Query: Expecting either a value, list or function but got ')'. You must surround ')' in quotation marks to use it as a value. (line 1, character 13)",
    ],
    [
      "project ENG",
      "Error in the JQL Query: Expecting operator but got 'ENG'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'. (line 1, character 9)",
    ],
    [
      "project",
      "Error in the JQL Query: Expecting operator before the end of the query. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'.",
    ],
    ["= ENG", "Error in the JQL Query: Expecting a field name but got '='. (line 1, character 1)"],
    [
      "project = ENG ORDER key",
      "Error in the JQL Query: Expecting 'BY' but got 'key'. (line 1, character 21)",
    ],
    ["project = ENG ORDER", "Error in the JQL Query: Expecting 'BY' before the end of the query."],
    ["project = ENG ORDER BY", "Error in the JQL Query: Expecting a field name at the end of the query."],
    [
      "project = ENG ORDER BY key DESC created",
      "Error in the JQL Query: Expecting either 'ASC', 'DESC' or ',' but got 'created'. (line 1, character 33)",
    ],
    [") project = ENG", "Error in the JQL Query: Expecting a field name but got ')'. (line 1, character 1)"],
    [
      "project = ENG)",
      "Error in the JQL Query: Expecting either 'OR' or 'AND' but got ')'. (line 1, character 14)",
    ],
    [
      "status WAS Done FROM Open",
      "Error in the JQL Query: Expecting either 'OR' or 'AND' but got 'FROM'. (line 1, character 17)",
    ],
    [
      "(status WAS Done TO Done)",
      "Error in the JQL Query: Expecting ')' but got 'TO'. (line 1, character 18)",
    ],
    [
      "status CHANGED BY",
      "Error in JQL Query: Expecting either a value, list or function before the end of the query.",
    ],
    [
      "summary ~ after",
      "Error in the JQL Query: 'after' is a reserved JQL word. You must surround it in quotation marks to use it in a query. (line 1, character 11)",
    ],
    [
      "status = To Do",
      "Error in the JQL Query: 'To' is a reserved JQL word. You must surround it in quotation marks to use it in a query. (line 1, character 10)",
    ],
    [
      "on = x",
      "Error in the JQL Query: 'on' is a reserved JQL word. You must surround it in quotation marks to use it in a query. (line 1, character 1)",
    ],
  ])("refuses %j", (text, message) => {
    expect(syntaxError(text)).toEqual([message]);
  });

  it("refuses nesting deeper than it can read safely, without a stack overflow", () => {
    expect(syntaxError(`${"(".repeat(5000)}a = 1${")".repeat(5000)}`)[0]).toContain("nested too deeply");
    expect(syntaxError(`${"NOT ".repeat(5000)}a = 1`)[0]).toContain("nested too deeply");
  });
});
