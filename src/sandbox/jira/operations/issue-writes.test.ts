import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { fieldErrors, getIssue, type Json, rejected } from "../../../../test/support/jira-requests.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import type { Site } from "../../site.ts";

function people(site: Site) {
  const users = [...site.values("users")];
  return {
    active: users.find((u) => u.active && u.accountId !== AGENT_ACCOUNT_ID)!,
    inactive: users.find((u) => !u.active)!,
  };
}

describe("createIssue", () => {
  it("creates a sub-task with assignee and priority, linked both ways", () => {
    const site = createSite({ seed: 1 });
    const { active } = people(site);
    const res = call(
      site,
      "createIssue",
      {},
      {
        fields: {
          project: { key: "ENG" },
          issuetype: { name: "Sub-task" },
          parent: { key: "ENG-1" },
          summary: "  Write the migration  ",
          assignee: { accountId: active.accountId },
          priority: { name: "High" },
          labels: ["db", "backend", "db"],
          description: paragraphDoc("Steps."),
          duedate: "2026-04-01",
        },
      },
    );
    expect(res.status).toBe(201);
    const created = res.body as { id: string; key: string; self: string };
    expect(created.key).toMatch(/^ENG-\d+$/);
    expect(created.self).toBe(`http://sim.test/rest/api/3/issue/${created.id}`);

    const child = getIssue(site, created.key);
    expect(child.fields.summary).toBe("Write the migration");
    expect(child.fields.parent.key).toBe("ENG-1");
    expect(child.fields.issuetype).toMatchObject({ name: "Sub-task", subtask: true });
    expect(child.fields.assignee.accountId).toBe(active.accountId);
    expect(child.fields.reporter.accountId).toBe(AGENT_ACCOUNT_ID);
    expect(child.fields.creator.accountId).toBe(AGENT_ACCOUNT_ID);
    expect(child.fields.priority.name).toBe("High");
    expect(child.fields.labels).toEqual(["backend", "db"]);
    expect(child.fields.description).toEqual(paragraphDoc("Steps."));
    expect(child.fields.duedate).toBe("2026-04-01");
    expect(child.fields.status.name).toBe("To Do");
    expect(child.fields.resolution).toBeNull();
    expect(child.fields.created).toBe(child.fields.updated);

    const parent = getIssue(site, "ENG-1");
    expect(parent.fields.subtasks.map((s: { key: string }) => s.key)).toContain(created.key);
  });

  it("accepts ids for references and applies defaults", () => {
    const site = createSite({ seed: 1 });
    const project = [...site.values("projects")].find((p) => p.key === "OPS")!;
    const task = [...site.values("issueTypes")].find((t) => t.projectId === project.id && t.name === "Task")!;
    const res = call(
      site,
      "createIssue",
      {},
      {
        fields: { project: { id: project.id }, issuetype: { id: Number(task.id) }, summary: "Rotate keys" },
      },
    );
    expect(res.status).toBe(201);
    const issue = getIssue(site, (res.body as { key: string }).key);
    expect(issue.key).toMatch(/^OPS-/);
    expect(issue.fields.priority.name).toBe("Medium");
    expect(issue.fields.assignee.accountId).toBe(project.leadAccountId);
    expect(issue.fields.labels).toEqual([]);
    expect(issue.fields.description).toBeNull();
  });

  it("leaves the issue unassigned for assignee null and sets labels from update", () => {
    const site = createSite({ seed: 1 });
    const res = call(
      site,
      "createIssue",
      {},
      {
        fields: { project: { key: "ENG" }, issuetype: { name: "Bug" }, summary: "Crash", assignee: null },
        update: { labels: [{ add: "crash" }, { add: "p1" }, { remove: "p1" }] },
      },
    );
    const issue = getIssue(site, (res.body as { key: string }).key);
    expect(issue.fields.assignee).toBeNull();
    expect(issue.fields.labels).toEqual(["crash"]);
  });

  it("uses the project's own name for the sub-task type", () => {
    const site = createSite({ seed: 1 });
    const body = (name: string) => ({
      fields: { project: { key: "OPS" }, issuetype: { name }, parent: { key: "OPS-1" }, summary: "x" },
    });
    expect(rejected(site, "createIssue", {}, body("Sub-task"))).toEqual(
      fieldErrors({ issuetype: "The issue type selected is invalid." }),
    );
    expect(call(site, "createIssue", {}, body("Subtask")).status).toBe(201);
  });

  it("runs a requested transition and reports it as a nested response", () => {
    const site = createSite({ seed: 1 });
    const base = { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "Go" };
    const ok = call(site, "createIssue", {}, { fields: base, transition: { id: "21" } }).body as Json;
    expect(ok.transition).toEqual({ status: 200, errorCollection: { errorMessages: [], errors: {} } });
    expect(getIssue(site, ok.key).fields.status.name).toBe("In Progress");
    const bad = call(site, "createIssue", {}, { fields: base, transition: { id: "41" } }).body as Json;
    expect(bad.transition).toEqual({
      status: 400,
      errorCollection: { errorMessages: ["Transition id '41' is not valid for this issue."], errors: {} },
    });
    expect(getIssue(site, bad.key).fields.status.name).toBe("To Do");
  });
});

describe("createIssue errors", () => {
  const site = createSite({ seed: 1 });
  const { active, inactive } = people(site);
  const task = (extra: Record<string, unknown>) => ({
    fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "x", ...extra },
  });

  it("collects every missing required field", () => {
    expect(rejected(site, "createIssue", {}, { fields: {} })).toEqual(
      fieldErrors({
        project: "Specify a valid project ID or key",
        issuetype: "Specify an issue type",
        summary: "You must specify a summary of the issue.",
      }),
    );
    expect(rejected(site, "createIssue", {}, { fields: { project: { key: "ENG" } } })).toEqual(
      fieldErrors({
        issuetype: "Specify an issue type",
        summary: "You must specify a summary of the issue.",
      }),
    );
  });

  it("names the field when a string is sent where an object is expected", () => {
    expect(
      rejected(site, "createIssue", {}, { fields: { project: "ENG", issuetype: "Task", summary: "x" } }),
    ).toEqual(fieldErrors({ project: "data was not an object", issuetype: "data was not an object" }));
    expect(rejected(site, "createIssue", {}, task({ issuetype: "Task" }))).toEqual(
      fieldErrors({ issuetype: "data was not an object" }),
    );
    expect(rejected(site, "createIssue", {}, task({ priority: "High", labels: "a" }))).toEqual(
      fieldErrors({ priority: "data was not an object", labels: "data was not an array" }),
    );
  });

  it("rejects unknown projects and issue types of other projects", () => {
    expect(rejected(site, "createIssue", {}, task({ project: { key: "NOPE" } }))).toEqual(
      fieldErrors({ project: "Specify a valid project ID or key" }),
    );
    const opsTask = [...site.values("issueTypes")].find((t) => t.projectId !== "10000" && t.name === "Task")!;
    expect(rejected(site, "createIssue", {}, task({ issuetype: { id: opsTask.id } }))).toEqual(
      fieldErrors({ issuetype: "The issue type selected is invalid." }),
    );
  });

  it("checks sub-task parents", () => {
    const sub = (parent?: unknown) => ({
      fields: { project: { key: "ENG" }, issuetype: { name: "Sub-task" }, summary: "x", parent },
    });
    expect(rejected(site, "createIssue", {}, sub())).toEqual(
      fieldErrors({ issuetype: "Issue type is a sub-task but parent issue key or id not specified." }),
    );
    expect(rejected(site, "createIssue", {}, sub({ key: "ENG-9999" }))).toEqual(
      fieldErrors({ parent: "Could not find issue by id or key." }),
    );
    expect(rejected(site, "createIssue", {}, sub("ENG-1"))).toEqual(
      fieldErrors({ parent: "data was not an object" }),
    );
    expect(rejected(site, "createIssue", {}, sub({ key: "OPS-1" }))).toEqual(
      fieldErrors({ project: "Sub-tasks must be created in the same project as the parent." }),
    );
    const subtask = [...site.values("issues")].find((i) => i.parentId !== null && i.key.startsWith("ENG-"))!;
    expect(rejected(site, "createIssue", {}, sub({ key: subtask.key }))).toEqual(
      fieldErrors({ parent: "Given parent work item does not belong to appropriate hierarchy." }),
    );
    expect(rejected(site, "createIssue", {}, task({ parent: { key: "ENG-2" } }))).toEqual(
      fieldErrors({ parent: "Given parent work item does not belong to appropriate hierarchy." }),
    );
  });

  it("validates users, priority, labels, dates, texts and the summary", () => {
    expect(
      rejected(
        site,
        "createIssue",
        {},
        task({
          assignee: { accountId: "nobody" },
          reporter: { accountId: inactive.accountId },
          priority: { name: "Urgent" },
          labels: ["two words"],
          duedate: "2026-02-30",
          description: "plain text",
          environment: {
            type: "doc",
            version: 1,
            content: [{ type: "paragraph", content: [{ type: "text" }] }],
          },
          summary: "y".repeat(255),
        }),
      ),
    ).toEqual(
      fieldErrors({
        assignee: "Specified user does not exist or you do not have required permissions",
        reporter: "Specified user does not exist or you do not have required permissions",
        priority: "Specify the Priority (id or name) in the proper format",
        labels: "The label 'two words' contains spaces which is invalid.",
        duedate: "Error parsing date string: 2026-02-30",
        description: "Operation value must be an Atlassian Document (see the Atlassian Document Format)",
        environment: "Invalid ADF: content[0].content[0] text nodes need a non-empty 'text'.",
        summary: "Summary must be less than 255 characters.",
      }),
    );
    expect(rejected(site, "createIssue", {}, task({ assignee: { accountId: inactive.accountId } }))).toEqual(
      fieldErrors({ assignee: `User '${inactive.displayName}' cannot be assigned issues.` }),
    );
    expect(rejected(site, "createIssue", {}, task({ summary: "a\nb" }))).toEqual(
      fieldErrors({ summary: "The summary is invalid because it contains newline characters." }),
    );
    expect(rejected(site, "createIssue", {}, task({ summary: "   " }))).toEqual(
      fieldErrors({ summary: "You must specify a summary of the issue." }),
    );
    expect(call(site, "createIssue", {}, task({ reporter: { accountId: active.accountId } })).status).toBe(
      201,
    );
  });

  it("refuses fields that are not on the create screen and fields sent twice", () => {
    expect(
      rejected(site, "createIssue", {}, task({ status: { name: "Done" }, customfield_10010: 3 })),
    ).toEqual(
      fieldErrors({
        status: "Field 'status' cannot be set. It is not on the appropriate screen, or unknown.",
        customfield_10010:
          "Field 'customfield_10010' cannot be set. It is not on the appropriate screen, or unknown.",
      }),
    );
    expect(rejected(site, "createIssue", {}, { ...task({}), update: { summary: [{ set: "y" }] } })).toEqual(
      fieldErrors({ summary: "Field 'summary' cannot be set in both 'fields' and 'update'." }),
    );
    expect(rejected(site, "createIssue", {}, { ...task({}), update: { labels: [{ edit: "y" }] } })).toEqual(
      fieldErrors({ labels: "The operation 'edit' is not supported for the field 'labels'." }),
    );
  });
});
