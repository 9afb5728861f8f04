import { describe, expect, it } from "vitest";
import { jqlErrors } from "../../../../test/support/jql-errors.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { DONE, IN_PROGRESS, IN_REVIEW, TO_DO } from "../catalog.ts";
import type { Issue } from "../model.ts";
import { searchIssues } from "./query.ts";

const site = createSite({ seed: 1 });
const all = [...site.values("issues")];
const project = (key: string) => [...site.values("projects")].find((p) => p.key === key)!;
const typeName = (issue: Issue) => site.get("issueTypes", issue.issueTypeId)!.name;

const keys = (jql: string, on = site) => searchIssues(on, jql, AGENT_ACCOUNT_ID).map((i) => i.key);
const sorted = (list: string[]) => [...list].sort();
/** The keys of the issues a query finds, as a set, against the keys of the issues `expected` picks. */
const expectSame = (jql: string, expected: (issue: Issue) => boolean) =>
  expect(sorted(keys(jql))).toEqual(sorted(all.filter(expected).map((i) => i.key)));

const errors = (jql: string) => jqlErrors(site, jql);

describe("searchIssues: fields and values", () => {
  const eng = project("ENG");

  it("finds a project by key (any case), name or id", () => {
    const inEng = (i: Issue) => i.projectId === eng.id;
    expectSame("project = ENG", inEng);
    expectSame("project = eng", inEng);
    expectSame('project = "Engineering Platform"', inEng);
    expectSame(`project = ${eng.id}`, inEng);
    expectSame("project in (ENG, OPS)", (i) => inEng(i) || i.projectId === project("OPS").id);
    expectSame("project != ENG", (i) => !inEng(i));
  });

  it("finds issues by key, issuekey, issue or id, and compares keys within a project", () => {
    expect(keys("key = ENG-3")).toEqual(["ENG-3"]);
    expect(keys("issuekey = eng-3")).toEqual(["ENG-3"]);
    expect(keys(`id = ${all[2]!.id}`)).toEqual([all[2]!.key]);
    expect(keys("issue in (ENG-1, OPS-2) ORDER BY key")).toEqual(["ENG-1", "OPS-2"]);
    expect(keys("key > ENG-12 ORDER BY key")).toEqual(["ENG-13", "ENG-14", "ENG-15"]);
    expect(keys("key <= OPS-2 AND key >= OPS-1 ORDER BY key")).toEqual(["OPS-1", "OPS-2"]);
  });

  it("matches issue types by name across projects, by id, and by type function", () => {
    expectSame("issuetype = Bug", (i) => typeName(i) === "Bug");
    expectSame("type = story", (i) => typeName(i) === "Story");
    expectSame('issuetype = "Sub-task"', (i) => typeName(i) === "Sub-task");
    expectSame("issuetype = Subtask", (i) => typeName(i) === "Subtask");
    expectSame(`issuetype = ${all[0]!.issueTypeId}`, (i) => i.issueTypeId === all[0]!.issueTypeId);
    expectSame("issuetype in subTaskIssueTypes()", (i) => i.parentId !== null);
    expectSame("issuetype in standardIssueTypes()", (i) => i.parentId === null);
  });

  it("matches statuses by name (any case) or id, and status categories by name, key or id", () => {
    expectSame('status = "In Progress"', (i) => i.statusId === IN_PROGRESS);
    expectSame("status = 'in review'", (i) => i.statusId === IN_REVIEW);
    expectSame(`status = ${DONE}`, (i) => i.statusId === DONE);
    const inProgressCategory = (i: Issue) => i.statusId === IN_PROGRESS || i.statusId === IN_REVIEW;
    expectSame('statusCategory = "In Progress"', inProgressCategory);
    expectSame("statuscategory = indeterminate", inProgressCategory);
    expectSame("statusCategory = 4", inProgressCategory);
    expectSame("statusCategory != Done", (i) => i.statusId !== DONE);
    expectSame('statusCategory = "To Do"', (i) => i.statusId === TO_DO);
  });

  it("matches users by accountId and currentUser(), and EMPTY for unassigned", () => {
    const someone = all.find((i) => i.assigneeId)!.assigneeId!;
    expectSame(`assignee = ${someone}`, (i) => i.assigneeId === someone);
    expectSame(`assignee = "${someone}"`, (i) => i.assigneeId === someone);
    expectSame("assignee is EMPTY", (i) => i.assigneeId === null);
    expectSame("assignee = null", (i) => i.assigneeId === null);
    expectSame(`assignee in (EMPTY, ${someone})`, (i) => i.assigneeId === null || i.assigneeId === someone);
    expectSame(`reporter = ${someone}`, (i) => i.reporterId === someone);
    expect(keys("assignee = currentUser()")).toEqual([]);
    const fork = site.fork();
    fork.put("issues", all[0]!.id, { ...all[0]!, assigneeId: AGENT_ACCOUNT_ID });
    expect(keys("assignee = currentUser()", fork)).toEqual([all[0]!.key]);
  });

  it("never matches an empty field with != or NOT IN, and NOT means the same as the opposite operator", () => {
    const someone = all.find((i) => i.assigneeId)!.assigneeId!;
    const other = (i: Issue) => i.assigneeId !== null && i.assigneeId !== someone;
    expectSame(`assignee != ${someone}`, other);
    expectSame(`NOT assignee = ${someone}`, other);
    expectSame(`assignee not in (${someone})`, other);
    expectSame(`NOT assignee in (${someone})`, other);
    expectSame(`assignee != ${someone} OR assignee is EMPTY`, (i) => i.assigneeId !== someone);
    expectSame("labels not in (security)", (i) => i.labels.length > 0 && !i.labels.includes("security"));
    expectSame("NOT assignee is EMPTY", (i) => i.assigneeId !== null);
  });

  it("matches labels case-insensitively", () => {
    expectSame("labels = SECURITY", (i) => i.labels.includes("security"));
    expectSame("labels in (q3, Customer)", (i) => i.labels.includes("q3") || i.labels.includes("customer"));
    expectSame("labels is not EMPTY", (i) => i.labels.length > 0);
    expect(keys("labels = nothing-has-this")).toEqual([]);
  });

  it("knows components and versions, of which the site has none", () => {
    expectSame("component is EMPTY", () => true);
    expectSame("fixVersion is not EMPTY", () => false);
    expect(errors('component = "Backend"')).toEqual([
      "The value 'Backend' does not exist for the field 'component'.",
    ]);
  });

  it("matches parents by key or id", () => {
    const parentId = all.find((i) => i.parentId)!.parentId!;
    const parentKey = site.get("issues", parentId)!.key;
    expectSame(`parent = ${parentKey}`, (i) => i.parentId === parentId);
    expectSame(`parent = ${parentId}`, (i) => i.parentId === parentId);
  });

  it("matches priorities by name or id, and compares them (Highest is the greatest)", () => {
    expectSame("priority = High", (i) => i.priorityId === "2");
    expectSame("priority = 1", (i) => i.priorityId === "1");
    expectSame("priority >= High", (i) => i.priorityId === "1" || i.priorityId === "2");
    expectSame("priority < Medium", (i) => i.priorityId === "4" || i.priorityId === "5");
    expectSame("NOT priority > Medium", (i) => Number(i.priorityId) >= 3);
  });

  it("matches resolutions, with Unresolved meaning EMPTY", () => {
    expectSame("resolution = Unresolved", (i) => i.resolutionId === null);
    expectSame("resolution is EMPTY", (i) => i.resolutionId === null);
    expectSame("resolution = Done", (i) => i.resolutionId === "10000");
    expectSame("resolution != Unresolved", (i) => i.resolutionId !== null);
  });

  it("matches text with ~ in summary, description, comments and all of them", () => {
    expectSame('summary ~ "build cluster"', (i) => /build cluster/.test(i.summary));
    expectSame("summary ~ migrat*", (i) => /migrat/i.test(i.summary));
    expectSame('summary !~ "unit tests"', (i) => !/unit tests/i.test(i.summary));
    expectSame('description ~ "linked pages"', () => true);
    const commented = new Set(
      [...site.values("comments")]
        .filter((c) => /Blocked/.test(JSON.stringify(c.body)))
        .map((c) => c.issueId),
    );
    expect(commented.size).toBeGreaterThan(0);
    expectSame('comment ~ "blocked review"', (i) => commented.has(i.id));
    expectSame('text ~ "blocked review"', (i) => commented.has(i.id));
    expectSame('text ~ "Postmortem"', (i) => i.summary.includes("Postmortem"));
    expectSame("description is EMPTY", () => false);
  });
});

describe("searchIssues: dates", () => {
  it("compares created and updated with dates, date-times, periods and functions", () => {
    const now = site.now();
    const day = 86_400_000;
    expectSame("created >= -7d", (i) => i.created >= now - 7 * day);
    expectSame("created < -2w", (i) => i.created < now - 14 * day);
    expectSame('updated > "2026/04/29 12:00"', (i) => i.updated > Date.UTC(2026, 3, 29, 12));
    const today = new Date(now);
    const startOfDay = (offsetDays: number) =>
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offsetDays);
    expectSame("created >= startOfDay(-3)", (i) => i.created >= startOfDay(-3));
    expectSame("created <= now()", () => true);
    expectSame(
      "created >= startOfMonth()",
      (i) => i.created >= Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1),
    );
    expectSame("created > endOfDay()", () => false);
  });

  it("reads = on a date as the whole day and <= as up to its midnight", () => {
    const first = all[0]!;
    const day = new Date(first.created).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${day}T00:00:00.000Z`);
    const nextDay = new Date(dayStart + 86_400_000).toISOString().slice(0, 10);
    const onDay = (i: Issue) => i.created >= dayStart && i.created < dayStart + 86_400_000;
    expect(onDay(first)).toBe(true);
    expectSame(`created = "${day}"`, onDay);
    expectSame(`created <= ${day}`, (i) => i.created <= dayStart);
    expectSame(`created < ${nextDay}`, (i) => i.created < dayStart + 86_400_000);
    expectSame(`created != ${day}`, (i) => !onDay(i));
  });

  it("treats due dates and resolution dates as possibly empty", () => {
    expectSame("due is EMPTY", (i) => i.duedate === null);
    expectSame("resolved is not EMPTY", (i) => i.resolutionDate !== null);
    const fork = site.fork();
    fork.put("issues", all[1]!.id, { ...all[1]!, duedate: "2026-06-01" });
    expect(keys('duedate = "2026-06-01"', fork)).toEqual([all[1]!.key]);
    expect(keys("due > 2026-05-31", fork)).toEqual([all[1]!.key]);
  });
});

describe("searchIssues: boolean structure and order", () => {
  const eng = project("ENG").id;
  const ops = project("OPS").id;

  it("applies AND before OR, NOT before AND, and parentheses first", () => {
    expectSame(
      "project = ENG OR project = OPS AND status = Done",
      (i) => i.projectId === eng || (i.projectId === ops && i.statusId === DONE),
    );
    expectSame(
      "(project = ENG OR project = OPS) AND status = Done",
      (i) => (i.projectId === eng || i.projectId === ops) && i.statusId === DONE,
    );
    expectSame("NOT project = ENG AND status = Done", (i) => i.projectId !== eng && i.statusId === DONE);
    expectSame("NOT (project = ENG AND status = Done)", (i) => !(i.projectId === eng && i.statusId === DONE));
    expectSame("NOT (project = ENG OR labels is EMPTY)", (i) => i.projectId !== eng && i.labels.length > 0);
  });

  it("orders newest first by default, with a total order", () => {
    const found = searchIssues(site, "project in (ENG, OPS, MOB, WEB)", AGENT_ACCOUNT_ID);
    expect(found.map((i) => i.key)).toEqual(
      [...all].sort((a, b) => b.created - a.created || Number(b.id) - Number(a.id)).map((i) => i.key),
    );
  });

  it("orders by several fields, ASC and DESC, breaking ties by id", () => {
    const found = searchIssues(site, "project = ENG ORDER BY priority DESC, key ASC", AGENT_ACCOUNT_ID);
    const expected = all
      .filter((i) => i.projectId === eng)
      .sort(
        (a, b) =>
          Number(a.priorityId) - Number(b.priorityId) || Number(a.key.slice(4)) - Number(b.key.slice(4)),
      );
    expect(found.map((i) => i.key)).toEqual(expected.map((i) => i.key));
    expect(keys("project = ENG ORDER BY key DESC").slice(0, 3)).toEqual(["ENG-15", "ENG-14", "ENG-13"]);
    expect(keys("project = ENG ORDER BY key").slice(8, 11)).toEqual(["ENG-9", "ENG-10", "ENG-11"]);
    const byStatus = searchIssues(site, "project = OPS ORDER BY status", AGENT_ACCOUNT_ID);
    for (let n = 1; n < byStatus.length; n++) {
      const [a, b] = [byStatus[n - 1]!, byStatus[n]!];
      if (a.statusId === b.statusId) expect(Number(a.id)).toBeLessThan(Number(b.id));
    }
  });

  it("sorts empty values last ascending and first descending", () => {
    const asc = searchIssues(site, "project = WEB ORDER BY assignee ASC", AGENT_ACCOUNT_ID);
    const desc = searchIssues(site, "project = WEB ORDER BY assignee DESC", AGENT_ACCOUNT_ID);
    expect(asc.at(-1)!.assigneeId).toBeNull();
    expect(asc[0]!.assigneeId).not.toBeNull();
    expect(desc[0]!.assigneeId).toBeNull();
  });
});

describe("searchIssues: errors", () => {
  it.each([
    ["bogus = 1", "Field 'bogus' does not exist or you do not have permission to view it."],
    ["cf[10010] = 1", "Field 'cf[10010]' does not exist or you do not have permission to view it."],
    ["project = NOPE", "The value 'NOPE' does not exist for the field 'project'."],
    ["project = 99999", "A value with ID '99999' does not exist for the field 'project'."],
    ["project = '99999'", "The value '99999' does not exist for the field 'project'."],
    ['type = "Saga"', "The value 'Saga' does not exist for the field 'type'."],
    ['status = "Shipped"', "The value 'Shipped' does not exist for the field 'status'."],
    ["assignee = nobody-at-all", "The value 'nobody-at-all' does not exist for the field 'assignee'."],
    ['assignee = "Alex Chen"', "The value 'Alex Chen' does not exist for the field 'assignee'."],
    ["key = ENG-999", "An issue with key 'ENG-999' does not exist for field 'key'."],
    ["issuekey = foo", "The issue key 'foo' for field 'issuekey' is invalid."],
    ["project ~ ENG", "The operator '~' is not supported by the 'project' field."],
    ["summary = x", "The operator '=' is not supported by the 'summary' field."],
    ["text !~ x", "The operator '!~' is not supported by the 'text' field."],
    ["status > Done", "The operator '>' is not supported by the 'status' field."],
    ["project is EMPTY", "The operator 'is' is not supported by the 'project' field."],
    ["project = EMPTY", "The field 'project' does not support searching for EMPTY values."],
    [
      "assignee is currentUser()",
      "The operator 'is' only supports searching for EMPTY values on the 'assignee' field.",
    ],
    ["status = (Done, 3)", "The operator '=' does not support a list of values for the field 'status'."],
    ['summary ~ ""', "The field 'summary' does not support searching for an empty string."],
    ["assignee = noSuchFunction()", "Unable to find JQL function 'noSuchFunction()'."],
    [
      "status = currentUser()",
      "A value provided by the function 'currentUser' is invalid for the field 'status'.",
    ],
    [
      "created > currentUser()",
      "A value provided by the function 'currentUser' is invalid for the field 'created'.",
    ],
    ["assignee = currentUser(x)", "Function 'currentUser' expected '0' arguments but received '1'."],
    [
      "created > startOfDay(1, 2)",
      "Function 'startOfDay' expected between '0' and '1' arguments but received '2'.",
    ],
    ["created > startOfDay(-1x)", "Duration format '-1x' is invalid for function 'startOfDay'."],
    [
      "updated >= yesterday",
      "Date value 'yesterday' for field 'updated' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.",
    ],
    [
      "project = ENG ORDER BY zzfield",
      "Field 'zzfield' does not exist or you do not have permission to view it.",
    ],
    ["project = ENG ORDER BY description", "Not able to sort using field 'description'."],
    ["", "Unbounded JQL queries are not allowed here. Please add a search restriction to your query."],
    [
      "order by key desc",
      "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
    ],
  ])("answers %j with Jira's message", (jql, message) => {
    expect(errors(jql)).toEqual([message]);
  });

  it("reports every problem of a query at once", () => {
    expect(errors("bogus = 1 AND project = NOPE OR status ~ x ORDER BY nothing")).toEqual([
      "Field 'bogus' does not exist or you do not have permission to view it.",
      "The value 'NOPE' does not exist for the field 'project'.",
      "The operator '~' is not supported by the 'status' field.",
      "Field 'nothing' does not exist or you do not have permission to view it.",
    ]);
    expect(errors("key in (ENG-998, ENG-999, ENG-1)")).toEqual([
      "An issue with key 'ENG-998' does not exist for field 'key'.",
      "An issue with key 'ENG-999' does not exist for field 'key'.",
    ]);
  });

  it("refuses more than seven ORDER BY fields", () => {
    expect(
      errors("project = ENG ORDER BY key, created, updated, priority, status, summary, assignee, reporter"),
    ).toEqual(["The ORDER BY clause can contain a maximum of 7 fields."]);
  });
});
