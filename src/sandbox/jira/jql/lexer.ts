/**
 * JQL lexer: turns query text into tokens (words, quoted strings, operators, parentheses, commas and
 * the symbolic `&&`, `||`, `!`). It rejects unterminated strings and reserved characters outside quotes,
 * and marks reserved words used unquoted for the parser to refuse where it meets them. Keywords (AND, IN, EMPTY, ...) stay
 * words; the parser gives them meaning by position.
 */
import { jqlError, syntax } from "./errors.ts";

export type TokenKind = "word" | "string" | "op" | "lparen" | "rparen" | "comma" | "symbol" | "end";

export interface Token {
  kind: TokenKind;
  /** The token's value: unescaped text for words and strings, the symbol itself otherwise. */
  text: string;
  /** 0-based offset of the token's first character. */
  pos: number;
  /**
   * A reserved word (`'End' is a reserved JQL word`): the parser refuses it wherever it reads it, except
   * the few (AFTER, BEFORE, ON, FROM, TO) that are history predicates, where they are keywords.
   */
  reserved?: true;
}

/** Words the JQL parser treats as keywords, so they are not reserved-word errors (WAS and CHANGED are history operators). */
export const KEYWORDS = new Set([
  "and",
  "or",
  "not",
  "in",
  "is",
  "empty",
  "null",
  "order",
  "by",
  "asc",
  "desc",
  "was",
  "changed",
]);

/** Jira's reserved words: unquoted, each is a syntax error (`'End' is a reserved JQL word`). */
const RESERVED_WORDS = new Set(
  [
    "abort access add after alias all alter any as asc audit avg before begin between boolean break by byte catch ",
    "cf char character check checkpoint collate collation column commit connect continue count create current date ",
    "decimal declare decrement default defaults define delete delimiter difference distinct divide do double drop ",
    "else encoding end equals escape exclusive exec execute exists explain false fetch file field first float for ",
    "from function go goto grant greater group having identified if immediate increment index initial inner inout ",
    "input insert int integer intersect intersection into isempty isnull it join last left less like limit lock long ",
    "max min minus mode modify modulo more multiply next noaudit notin nowait number object of on option outer output ",
    "power previous prior privileges public raise raw remainder rename resource return returns revoke right row rowid ",
    "rownum rows select session set share size sqrt start strict str subtract sum synonym table then to trans ",
    "transaction trigger true uid union unique update user validate values view when whenever where while with",
  ]
    .join("")
    .split(" "),
);

/** A reserved word that is not a keyword (`'End' is a reserved JQL word`). */
export function isReservedWord(word: string): boolean {
  const lower = word.toLowerCase();
  return RESERVED_WORDS.has(lower) && !KEYWORDS.has(lower);
}

/** Characters that may not appear unquoted. */
const RESERVED_CHARS = new Set(["@", "%", "^", "$", "#", ";", "{", "}", "[", "]"]);

/** Characters that end an unquoted word. */
const WORD_STOP = new Set([..." \t\r\n\"'(),=!<>~&|"]);

const ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  '"': '"',
  "'": "'",
  "\\": "\\",
  " ": " ",
};

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (["!=", "!~", ">=", "<=", "&&", "||"].includes(two)) {
      tokens.push({ kind: two === "&&" || two === "||" ? "symbol" : "op", text: two, pos: i });
      i += 2;
    } else if ("=~<>".includes(c)) {
      tokens.push({ kind: "op", text: c, pos: i++ });
    } else if ("!&|".includes(c)) {
      tokens.push({ kind: "symbol", text: c, pos: i++ });
    } else if (c === "(" || c === ")" || c === ",") {
      tokens.push({ kind: c === "(" ? "lparen" : c === ")" ? "rparen" : "comma", text: c, pos: i++ });
    } else if (c === '"' || c === "'") {
      i = readString(text, i, tokens);
    } else {
      i = readWord(text, i, tokens);
    }
  }
  tokens.push({ kind: "end", text: "", pos: text.length });
  return tokens;
}

function readString(text: string, start: number, tokens: Token[]): number {
  const quote = text[start]!;
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) {
      tokens.push({ kind: "string", text: value, pos: start });
      return i + 1;
    }
    if (c === "\\" && i + 1 < text.length) {
      const [char, next] = readEscape(text, i);
      value += char;
      i = next;
    } else {
      value += c;
      i++;
    }
  }
  throw jqlError([syntax.unclosedString(text, start, value)]);
}

function readWord(text: string, start: number, tokens: Token[]): number {
  let value = "";
  let i = start;
  while (i < text.length && !WORD_STOP.has(text[i]!)) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const [char, next] = readEscape(text, i);
      value += char;
      i = next;
      continue;
    }
    if (c === "[" && value.toLowerCase() === "cf") {
      const close = text.indexOf("]", i);
      if (close > i + 1 && /^\d+$/.test(text.slice(i + 1, close))) {
        value += text.slice(i, close + 1);
        i = close + 1;
        continue;
      }
    }
    if (RESERVED_CHARS.has(c)) throw jqlError([syntax.reservedChar(text, i, c)]);
    value += c;
    i++;
  }
  tokens.push({
    kind: "word",
    text: value,
    pos: start,
    ...(isReservedWord(value) ? { reserved: true } : {}),
  });
  return i;
}

/** Reads the escape sequence at `i` (a backslash); returns the character and the index after it. */
function readEscape(text: string, i: number): [string, number] {
  const next = text[i + 1]!;
  if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
    return [String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16)), i + 6];
  }
  const known = ESCAPES[next];
  return known !== undefined ? [known, i + 2] : [`\\${next}`, i + 2];
}
