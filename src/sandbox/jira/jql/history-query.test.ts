import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { jqlErrors } from "../../../../test/support/jql-errors.ts";
import { executeOperation } from "../../execute.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { findOperation } from "../../operations.ts";
import type { Site } from "../../site.ts";
import { DONE, IN_PROGRESS, TO_DO } from "../catalog.ts";
import { searchIssues } from "./query.ts";

const DAY = 86_400_000;
/** `yyyy-MM-dd HH:mm` (UTC), as JQL reads a date with a time. */
const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One issue walked through a history, two days apart: To Do → In Progress (by the agent), assigned to
 * another person (by that person), → Done (by the agent). Every other issue has no history.
 */
function walkedSite() {
  const site = createSite({ seed: 1 });
  const issue = [...site.values("issues")].find(
    (i) => i.statusId === TO_DO && i.assigneeId === null && !i.parentId,
  )!;
  const person = [...site.values("users")].find((u) => u.accountId !== AGENT_ACCOUNT_ID)!.accountId;
  const times: number[] = [];
  const step = (run: () => void) => {
    site.tick(2 * DAY);
    run();
    times.push(site.now());
  };
  step(() => call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id: "21" } }));
  step(() => {
    const op = findOperation("assignIssue")!;
    const input = { params: { issueIdOrKey: issue.key }, body: { accountId: person } };
    const result = executeOperation(site, op, input, { baseUrl: "http://sim.test", accountId: person });
    expect(result.status).toBe(204);
  });
  step(() => call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id: "31" } }));
  return { site, key: issue.key, created: issue.created, person, times };
}

const { site, key, created, person, times } = walkedSite();
const [started, assigned, done] = times as [number, number, number];
const all = [...site.values("issues")];

const keys = (jql: string, on: Site = site) =>
  searchIssues(on, jql, AGENT_ACCOUNT_ID)
    .map((i) => i.key)
    .sort();
/** Whether the walked issue is found. */
const finds = (jql: string) => keys(`key = ${key} AND ${jql}`).length === 1;
/** The keys of the issues whose status `pick` accepts, and the walked issue's. */
const keysWhereAnd = (pick: (status: string) => boolean) =>
  [...new Set([...all.filter((i) => pick(i.statusId)).map((i) => i.key), key])].sort();

const errors = (jql: string) => jqlErrors(site, jql);

describe("JQL history searches: WAS", () => {
  it("finds every value the field held, the current one and the one before the first change included", () => {
    expect(site.get("issues", all.find((i) => i.key === key)!.id)!.statusId).toBe(DONE);
    // Issues with no history hold their value since creation; the walked one held To Do, In Progress and Done.
    expect(keys('status WAS "In Progress"')).toEqual(keysWhereAnd((s) => s === IN_PROGRESS));
    expect(keys("status WAS 'to do'")).toEqual(keysWhereAnd((s) => s === TO_DO));
    expect(keys(`status WAS IN ("In Progress", ${DONE})`)).toEqual(
      keysWhereAnd((s) => s === IN_PROGRESS || s === DONE),
    );
    expect(finds("assignee WAS EMPTY")).toBe(true);
    expect(finds(`assignee WAS ${person}`)).toBe(true);
  });

  it("WAS NOT, WAS NOT IN and NOT … WAS find exactly the rest", () => {
    const was = keys('status WAS "In Progress"');
    const rest = all
      .map((i) => i.key)
      .filter((k) => !was.includes(k))
      .sort();
    expect(keys('status WAS NOT "In Progress"')).toEqual(rest);
    expect(keys('NOT status WAS "In Progress"')).toEqual(rest);
    expect(keys('status WAS NOT IN ("In Progress")')).toEqual(rest);
    expect(finds('status WAS NOT "In Review"')).toBe(true);
    expect(finds("NOT status WAS NOT Done")).toBe(true);
  });

  it("keeps the spans a time predicate's window overlaps", () => {
    // In Progress from `started` until `done`.
    expect(finds(`status WAS "In Progress" BEFORE "${minute(started)}"`)).toBe(false);
    expect(finds(`status WAS "In Progress" BEFORE "${minute(started + 60_000)}"`)).toBe(true);
    expect(finds(`status WAS "In Progress" AFTER "${minute(done + 60_000)}"`)).toBe(false);
    expect(finds(`status WAS "In Progress" AFTER "${minute(done - 60_000)}"`)).toBe(true);
    expect(finds(`status WAS "In Progress" ON "${day(assigned)}"`)).toBe(true);
    expect(finds(`status WAS "In Progress" ON "${day(done + 2 * DAY)}"`)).toBe(false);
    expect(finds(`status WAS "To Do" ON "${day(created)}"`)).toBe(true);
    expect(finds(`status WAS "To Do" BEFORE "${day(created)}"`)).toBe(false);
    expect(finds(`status WAS Done DURING ("${day(created)}", "${day(assigned)}")`)).toBe(false);
    expect(finds(`status WAS Done DURING ("${day(created)}", "${day(done)}")`)).toBe(true);
    // Relative dates and date functions count from the site clock.
    // (To Do until four days ago.)
    expect(finds('status WAS "To Do" AFTER -3d')).toBe(false);
    expect(finds('status WAS "To Do" AFTER -5d')).toBe(true);
    expect(finds("status WAS Done BEFORE endOfDay()")).toBe(true);
  });

  it("BY names who set the value: the creator for the first, each change's author after", () => {
    expect(finds('status WAS "In Progress" BY currentUser()')).toBe(true);
    expect(finds(`status WAS "In Progress" BY ${person}`)).toBe(false);
    expect(finds(`assignee WAS ${person} BY ${person}`)).toBe(true);
    expect(finds(`assignee WAS ${person} BY (${person}, ${AGENT_ACCOUNT_ID})`)).toBe(true);
    const creator = site.get("issues", all.find((i) => i.key === key)!.id)!.creatorId;
    expect(finds(`status WAS "To Do" BY ${creator}`)).toBe(true);
  });
});

describe("JQL history searches: CHANGED", () => {
  it("finds the issues whose field changed, with FROM, TO, BY and time predicates on each change", () => {
    expect(keys("status CHANGED")).toEqual([key]);
    expect(keys("assignee CHANGED")).toEqual([key]);
    expect(keys("priority CHANGED")).toEqual([]);
    expect(finds('status CHANGED FROM "To Do" TO "In Progress"')).toBe(true);
    expect(finds('status CHANGED FROM "In Progress" TO "To Do"')).toBe(false);
    expect(finds("status CHANGED TO Done BY currentUser()")).toBe(true);
    expect(finds(`status CHANGED BY ${person}`)).toBe(false);
    expect(finds(`assignee CHANGED FROM EMPTY TO ${person} BY ${person}`)).toBe(true);
    expect(finds(`status CHANGED TO Done BEFORE "${minute(done)}"`)).toBe(false);
    expect(finds(`status CHANGED TO Done AFTER "${minute(done - 60_000)}"`)).toBe(true);
    expect(finds(`status CHANGED ON "${day(started)}"`)).toBe(true);
    expect(finds(`status CHANGED DURING ("${day(assigned)}", "${day(assigned)}")`)).toBe(false);
    expect(finds(`status CHANGED TO Done DURING ("${day(assigned)}", "${day(done)}")`)).toBe(true);
    expect(finds("resolution CHANGED FROM EMPTY TO Done")).toBe(true);
    // Every predicate must hold for one and the same change.
    expect(finds(`status CHANGED FROM "To Do" TO "Done"`)).toBe(false);
    expect(keys("NOT status CHANGED")).toHaveLength(all.length - 1);
  });

  it("is refused, in Jira's words, for fields it does not search and for bad values", () => {
    expect(errors("summary WAS x")).toEqual(["The operator 'was' is not supported by the 'summary' field."]);
    expect(errors("creator CHANGED")).toEqual([
      "The operator 'changed' is not supported by the 'creator' field.",
    ]);
    expect(errors("labels WAS NOT IN (a)")).toEqual([
      "The operator 'was not in' is not supported by the 'labels' field.",
    ]);
    expect(errors("nope CHANGED")).toEqual([
      "Field 'nope' does not exist or you do not have permission to view it.",
    ]);
    expect(errors("status WAS Nope")).toEqual(["The value 'Nope' does not exist for the field 'status'."]);
    expect(errors("status WAS (Done, Open)")).toEqual([
      "The operator 'was' does not support a list of values for the field 'status'.",
    ]);
    expect(errors("status WAS EMPTY")).toEqual([
      "The field 'status' does not support searching for EMPTY values.",
    ]);
    expect(errors("status CHANGED BY nobody")).toEqual([
      "The value 'nobody' does not exist for the field 'by'.",
    ]);
    expect(errors('status CHANGED TO "Not a status"')).toEqual([
      "The value 'Not a status' does not exist for the field 'status'.",
    ]);
    expect(errors("status CHANGED AFTER soon")).toEqual([
      "Date value 'soon' for predicate 'AFTER' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.",
    ]);
    expect(errors('status CHANGED DURING ("2026-01-01")')).toEqual([
      'The predicate \'DURING\' takes two dates: DURING ("from", "to").',
    ]);
    expect(errors("status WAS Done ON (-1d, -2d)")).toEqual(["The predicate 'ON' takes one date."]);
  });
});
