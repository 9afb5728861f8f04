/**
 * A parser for the subset of Confluence Query Language (CQL) the simulator searches with: clauses
 * `field op value` (operators = != ~ !~ IN, NOT IN), joined by AND / OR / NOT with parentheses, quoted
 * or bare values, and an optional `ORDER BY field [ASC|DESC], ...`. Keywords are case-insensitive.
 * Anything else (functions such as currentUser(), range operators, unknown fields) is a CqlError,
 * which the search operation answers as Confluence does: 400 "Could not parse cql : <query>".
 */

/** The fields a clause may test. `space` is the space key; `siteSearch` is a synonym of `text`. */
export const CQL_FIELDS = [
  "type",
  "space",
  "space.key",
  "space.title",
  "title",
  "text",
  "sitesearch",
  "ancestor",
  "parent",
  "label",
  "id",
  "content",
] as const;
export type CqlField = (typeof CQL_FIELDS)[number];

export const CQL_SORT_FIELDS = ["title", "created", "lastmodified"] as const;
export type CqlSortField = (typeof CQL_SORT_FIELDS)[number];

export type CqlOperator = "=" | "!=" | "~" | "!~" | "in" | "not in";

export type CqlExpr =
  | { kind: "clause"; field: CqlField; op: CqlOperator; values: string[] }
  | { kind: "and"; left: CqlExpr; right: CqlExpr }
  | { kind: "or"; left: CqlExpr; right: CqlExpr }
  | { kind: "not"; expr: CqlExpr };

export interface CqlQuery {
  where: CqlExpr;
  orderBy: { field: CqlSortField; direction: "asc" | "desc" }[];
}

/** A query that is not valid CQL (or uses what the simulator does not support); `reason` says why. */
export class CqlError extends Error {
  override readonly name = "CqlError";
  constructor(
    readonly query: string,
    readonly reason: string,
  ) {
    super(`Could not parse cql : ${query} (${reason})`);
  }
}

type Token =
  | { type: "word"; text: string; at: number }
  | { type: "string"; text: string; at: number }
  | { type: "op"; text: string; at: number }
  | { type: "punct"; text: "(" | ")" | ","; at: number };

const WORD = /[A-Za-z0-9_.\-*@:]/;

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      tokens.push({ type: "punct", text: c, at: i++ });
    } else if (c === '"' || c === "'") {
      const at = i++;
      let text = "";
      while (i < query.length && query[i] !== c) {
        if (query[i] === "\\" && i + 1 < query.length) i++;
        text += query[i++];
      }
      if (i >= query.length) throw new CqlError(query, `unterminated string at ${at}`);
      i++;
      tokens.push({ type: "string", text, at });
    } else if (c === "!" || c === "=" || c === "~") {
      const two = query.slice(i, i + 2);
      const text = two === "!=" || two === "!~" ? two : c;
      if (text === "!") throw new CqlError(query, `unexpected '!' at ${i}`);
      tokens.push({ type: "op", text, at: i });
      i += text.length;
    } else if (WORD.test(c)) {
      const at = i;
      while (i < query.length && WORD.test(query[i]!)) i++;
      tokens.push({ type: "word", text: query.slice(at, i), at });
    } else {
      throw new CqlError(query, `unexpected '${c}' at ${i}`);
    }
  }
  return tokens;
}

const isKeyword = (t: Token | undefined, word: string) => t?.type === "word" && t.text.toLowerCase() === word;

/** Parses a CQL query; throws CqlError when it is not valid (supported) CQL. */
export function parseCql(query: string): CqlQuery {
  const tokens = tokenize(query);
  let pos = 0;
  const peek = () => tokens[pos];
  const fail = (what: string): never => {
    const t = peek();
    throw new CqlError(query, t ? `${what} at '${t.text}' (${t.at})` : `${what} at the end`);
  };
  const expectPunct = (text: string) => {
    const t = peek();
    if (t?.type !== "punct" || t.text !== text) fail(`expected '${text}'`);
    pos++;
  };

  const value = (): string => {
    const t = peek();
    if (t?.type === "string") {
      pos++;
      return t.text;
    }
    if (t?.type === "word" && !["and", "or", "not", "order", "in"].includes(t.text.toLowerCase())) {
      pos++;
      if (peek()?.type === "punct" && peek()?.text === "(") fail(`unsupported function ${t.text}()`);
      return t.text;
    }
    return fail("expected a value");
  };

  const clause = (): CqlExpr => {
    const t = peek();
    if (t?.type !== "word") return fail("expected a field");
    const field = t.text.toLowerCase() as CqlField;
    if (!CQL_FIELDS.includes(field)) fail(`unknown field '${t.text}'`);
    pos++;
    let op: CqlOperator;
    const next = peek();
    if (next?.type === "op") {
      op = next.text as CqlOperator;
      pos++;
    } else if (isKeyword(next, "in")) {
      op = "in";
      pos++;
    } else if (isKeyword(next, "not") && isKeyword(tokens[pos + 1], "in")) {
      op = "not in";
      pos += 2;
    } else {
      return fail(`expected an operator after '${t.text}'`);
    }
    if (op !== "in" && op !== "not in") return { kind: "clause", field, op, values: [value()] };
    expectPunct("(");
    const values = [value()];
    while (peek()?.type === "punct" && peek()?.text === ",") {
      pos++;
      values.push(value());
    }
    expectPunct(")");
    return { kind: "clause", field, op, values };
  };

  const unary = (): CqlExpr => {
    if (isKeyword(peek(), "not")) {
      pos++;
      return { kind: "not", expr: unary() };
    }
    const t = peek();
    if (t?.type === "punct" && t.text === "(") {
      pos++;
      const inner = or();
      expectPunct(")");
      return inner;
    }
    return clause();
  };

  const and = (): CqlExpr => {
    let left = unary();
    while (isKeyword(peek(), "and")) {
      pos++;
      left = { kind: "and", left, right: unary() };
    }
    return left;
  };

  const or = (): CqlExpr => {
    let left = and();
    while (isKeyword(peek(), "or")) {
      pos++;
      left = { kind: "or", left, right: and() };
    }
    return left;
  };

  if (tokens.length === 0) throw new CqlError(query, "the query is empty");
  const where = or();
  const orderBy: CqlQuery["orderBy"] = [];
  if (isKeyword(peek(), "order")) {
    pos++;
    if (!isKeyword(peek(), "by")) fail("expected BY");
    pos++;
    do {
      if (orderBy.length > 0) pos++;
      const t = peek();
      const field = t?.type === "word" ? (t.text.toLowerCase() as CqlSortField) : undefined;
      if (!field || !CQL_SORT_FIELDS.includes(field)) fail("expected title, created or lastmodified");
      pos++;
      let direction: "asc" | "desc" = "asc";
      if (isKeyword(peek(), "asc") || isKeyword(peek(), "desc")) {
        direction = peek()!.text.toLowerCase() as "asc" | "desc";
        pos++;
      }
      orderBy.push({ field: field!, direction });
    } while (peek()?.type === "punct" && peek()?.text === ",");
  }
  if (pos < tokens.length) fail("unexpected token");
  return { where, orderBy };
}
