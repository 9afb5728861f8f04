import { describe, expect, it } from "vitest";
import { ApiError } from "../../api-error.ts";
import { tokenize } from "./lexer.ts";

const kinds = (text: string) => tokenize(text).map((t) => `${t.kind}:${t.text}`);

function lexError(text: string): string[] {
  try {
    tokenize(text);
  } catch (error) {
    if (error instanceof ApiError && "errorMessages" in error.body) return error.body.errorMessages;
    throw error;
  }
  throw new Error(`expected ${text} to fail`);
}

describe("tokenize", () => {
  it("splits words, operators, strings, parentheses and commas, with positions", () => {
    const tokens = tokenize('project=ENG AND status in ("To Do", Done)');
    expect(tokens.map((t) => `${t.kind}:${t.text}@${t.pos}`)).toEqual([
      "word:project@0",
      "op:=@7",
      "word:ENG@8",
      "word:AND@12",
      "word:status@16",
      "word:in@23",
      "lparen:(@26",
      "string:To Do@27",
      "comma:,@34",
      "word:Done@36",
      "rparen:)@40",
      "end:@41",
    ]);
  });

  it("reads two-character operators and the symbolic AND, OR and NOT", () => {
    expect(kinds("a!=b c!~d e>=f g<=h i>j k<l && || ! & |")).toEqual([
      "word:a",
      "op:!=",
      "word:b",
      "word:c",
      "op:!~",
      "word:d",
      "word:e",
      "op:>=",
      "word:f",
      "word:g",
      "op:<=",
      "word:h",
      "word:i",
      "op:>",
      "word:j",
      "word:k",
      "op:<",
      "word:l",
      "symbol:&&",
      "symbol:||",
      "symbol:!",
      "symbol:&",
      "symbol:|",
      "end:",
    ]);
  });

  it("keeps relative dates, keys, account ids and dotted values as single words", () => {
    expect(kinds("-7d ENG-12 712020:0a0b-4000 2026/03/02 v1.0")).toEqual([
      "word:-7d",
      "word:ENG-12",
      "word:712020:0a0b-4000",
      "word:2026/03/02",
      "word:v1.0",
      "end:",
    ]);
  });

  it("reads single- and double-quoted strings with escapes", () => {
    expect(tokenize(`'it''s' "say \\"hi\\"" 'a\\'b' "\\u0041\\n"`).map((t) => t.text)).toEqual([
      "it",
      "s",
      'say "hi"',
      "a'b",
      "A\n",
      "",
    ]);
  });

  it("reads cf[12345] as one word", () => {
    expect(kinds("cf[10010] = 3")).toEqual(["word:cf[10010]", "op:=", "word:3", "end:"]);
  });

  it("refuses an unterminated string, naming where it starts", () => {
    expect(lexError('summary ~ "unclosed')).toEqual([
      "Error in the JQL Query: The quoted string 'unclosed' has not been completed. (line 1, character 11)",
    ]);
  });

  it("refuses a reserved character outside quotes", () => {
    expect(lexError("assignee = someone@example.com")).toEqual([
      "Error in the JQL Query: The character '@' is a reserved JQL character. You must enclose it in a string or use the escape '\\u0040' instead. (line 1, character 19)",
    ]);
    expect(lexError("labels = 50%")[0]).toContain("The character '%' is a reserved JQL character");
  });

  it("marks unquoted reserved words for the parser (which places history predicates and refuses the rest)", () => {
    const tokens = tokenize("status changed FROM a TO End");
    expect(tokens.filter((t) => t.reserved).map((t) => t.text)).toEqual(["FROM", "TO", "End"]);
    expect(kinds('status = "To Do"')).toEqual(["word:status", "op:=", "string:To Do", "end:"]);
  });

  it("counts lines and characters from 1 in multi-line queries", () => {
    expect(lexError('project = ENG\nAND summary ~ "x')[0]).toMatch(/\(line 2, character 15\)$/);
  });
});
