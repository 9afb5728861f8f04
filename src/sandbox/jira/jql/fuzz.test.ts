/**
 * Fuzz: seeded mutations of valid queries (characters and tokens dropped, inserted, swapped and
 * truncated) must each either run or be refused with a 400 ApiError, never throw anything else.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../api-error.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { createRandom, type Random } from "../../random.ts";
import { searchIssues } from "./query.ts";

const SEEDS = [
  'project = ENG AND status in ("To Do", Done) ORDER BY created DESC',
  "assignee = currentUser() OR assignee is EMPTY",
  "NOT (labels in (security, q3) AND priority >= High) ORDER BY priority DESC, key ASC",
  'text ~ "\\"build cluster\\"" AND created >= -7d',
  "created >= startOfDay(-1w) AND updated < endOfMonth(+1M) AND due is not EMPTY",
  "issuetype in subTaskIssueTypes() AND parent = ENG-1 || key > OPS-3 && !resolution = Unresolved",
  "statusCategory != Done AND summary ~ 'migrat*' ORDER BY assignee, updated",
  'project = "Engineering Platform" AND issuekey in (ENG-1, 10002) AND reporter != "x"',
  'status WAS NOT IN ("To Do", Done) BEFORE -1d BY currentUser() AND assignee CHANGED FROM EMPTY DURING (-2w, now())',
];

const FRAGMENTS = [
  "(",
  ")",
  ",",
  '"',
  "'",
  "=",
  "!=",
  "~",
  "!",
  "<",
  ">=",
  " AND ",
  " OR ",
  " NOT ",
  " IN ",
  " IS ",
  " EMPTY ",
  " WAS ",
  " CHANGED ",
  " AFTER ",
  " DURING ",
  " TO ",
  " ORDER BY ",
  "\\",
  "\\u00",
  "@",
  "%",
  "[",
  "]",
  "cf[",
  "()",
  "now(",
  "-7x",
  "\n",
  "\u0000",
  "é",
  "𝕏",
  " desc",
  "&&",
  "||",
];

function mutate(random: Random, text: string): string {
  let out = text;
  const rounds = random.int(1, 4);
  for (let r = 0; r < rounds; r++) {
    const at = random.int(0, out.length);
    const choice = random.int(0, 5);
    if (choice === 0) out = out.slice(0, at) + out.slice(at + random.int(1, 6));
    else if (choice === 1) out = out.slice(0, at) + random.pick(FRAGMENTS) + out.slice(at);
    else if (choice === 2) out = out.slice(0, at);
    else if (choice === 3) {
      const words = out.split(" ");
      out = random.shuffle(words).join(" ");
    } else if (choice === 4) {
      const words = out.split(" ");
      words.splice(random.int(0, words.length - 1), 1);
      out = words.join(" ");
    } else out = out.slice(at) + out.slice(0, at);
  }
  return out;
}

describe("JQL fuzz", () => {
  const site = createSite({ seed: 1 });
  const random = createRandom("jql-fuzz");
  const cases = Array.from({ length: 3000 }, () => mutate(random, random.pick(SEEDS)));

  it("answers every broken query with results or a 400 ApiError, never another exception", () => {
    const before = site.hash();
    let refused = 0;
    for (const jql of cases) {
      try {
        const found = searchIssues(site, jql, AGENT_ACCOUNT_ID);
        expect(Array.isArray(found)).toBe(true);
      } catch (error) {
        if (!(error instanceof ApiError)) throw new Error(`${JSON.stringify(jql)} threw ${String(error)}`);
        expect(error.status).toBe(400);
        const body = error.body as { errorMessages: string[]; errors: object };
        expect(body.errors).toEqual({});
        expect(body.errorMessages.length).toBeGreaterThan(0);
        for (const message of body.errorMessages) expect(message).toMatch(/\S/);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(cases.length / 2);
    expect(site.hash()).toBe(before);
  });
});
