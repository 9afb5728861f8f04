import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

type IssueTypeMeta = { id: string; name: string; subtask: boolean };
type FieldMeta = {
  fieldId: string;
  required: boolean;
  hasDefaultValue: boolean;
  allowedValues?: { name?: string; key?: string }[];
  defaultValue?: { name: string };
};

describe("getCreateIssueMetaIssueTypes", () => {
  const site = createSite({ seed: 1 });

  it("lists the project's own issue types, with its name for the sub-task type", () => {
    const eng = call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "ENG" }).body as {
      issueTypes: IssueTypeMeta[];
      startAt: number;
      maxResults: number;
      total: number;
    };
    expect(eng.issueTypes.map((t) => [t.name, t.subtask])).toEqual([
      ["Epic", false],
      ["Task", false],
      ["Story", false],
      ["Bug", false],
      ["Sub-task", true],
    ]);
    expect(eng).toMatchObject({ startAt: 0, maxResults: 50, total: 5 });
    const project = [...site.values("projects")].find((p) => p.key === "OPS")!;
    const ops = call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: project.id }).body as {
      issueTypes: IssueTypeMeta[];
    };
    expect(ops.issueTypes.find((t) => t.subtask)!.name).toBe("Subtask");
    expect(ops.issueTypes.map((t) => t.id)).not.toEqual(eng.issueTypes.map((t) => t.id));
  });

  it("pages with startAt and maxResults", () => {
    const page = call(site, "getCreateIssueMetaIssueTypes", {
      projectIdOrKey: "ENG",
      startAt: "1",
      maxResults: "2",
    }).body as { issueTypes: IssueTypeMeta[]; total: number };
    expect(page.issueTypes.map((t) => t.name)).toEqual(["Task", "Story"]);
    expect(page.total).toBe(5);
  });

  it("answers Jira's 400 over the limit and 404 for unknown projects", () => {
    const before = site.hash();
    expect(
      call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "ENG", maxResults: 201 }).body,
    ).toEqual({
      errorMessages: ["Parameter 'maxResults' must not exceed the limit '200'"],
      errors: {},
    });
    const missing = call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "NOPE" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      errorMessages: ["No project could be found with key 'NOPE'."],
      errors: {},
    });
    expect(call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "eng" }).status).toBe(404);
    expect(site.hash()).toBe(before);
  });
});

describe("getCreateIssueMetaIssueTypeId", () => {
  const site = createSite({ seed: 1 });
  const types = call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "ENG" }).body as {
    issueTypes: IssueTypeMeta[];
  };
  const idOf = (name: string) => types.issueTypes.find((t) => t.name === name)!.id;
  const fieldsOf = (issueTypeId: string) =>
    (
      call(site, "getCreateIssueMetaIssueTypeId", { projectIdOrKey: "ENG", issueTypeId }).body as {
        fields: FieldMeta[];
      }
    ).fields;

  it("marks project, issuetype, summary and reporter required for a task", () => {
    const fields = fieldsOf(idOf("Task"));
    const required = fields.filter((f) => f.required).map((f) => f.fieldId);
    expect(required.sort()).toEqual(["issuetype", "project", "reporter", "summary"]);
    expect(fields.map((f) => f.fieldId)).not.toContain("parent");
    const byId = Object.fromEntries(fields.map((f) => [f.fieldId, f]));
    expect(byId.reporter!.hasDefaultValue).toBe(true);
    expect(byId.priority!.allowedValues!.map((p) => p.name)).toEqual([
      "Highest",
      "High",
      "Medium",
      "Low",
      "Lowest",
    ]);
    expect(byId.priority!.defaultValue!.name).toBe("Medium");
    expect(byId.project!.allowedValues!.map((p) => p.key)).toEqual(["ENG"]);
    expect(byId.issuetype!.allowedValues!.map((t) => t.name)).toEqual(["Task"]);
    for (const id of ["assignee", "labels", "description", "duedate"]) expect(byId[id]!.required).toBe(false);
  });

  it("requires the parent for the sub-task type", () => {
    const parent = fieldsOf(idOf("Sub-task")).find((f) => f.fieldId === "parent");
    expect(parent).toMatchObject({ required: true });
  });

  it("pages fields and answers 404 for types of other projects", () => {
    const page = call(site, "getCreateIssueMetaIssueTypeId", {
      projectIdOrKey: "ENG",
      issueTypeId: idOf("Task"),
      startAt: 0,
      maxResults: 2,
    }).body as { fields: FieldMeta[]; total: number; maxResults: number };
    expect(page.fields.map((f) => f.fieldId)).toEqual(["summary", "issuetype"]);
    expect(page).toMatchObject({ total: 10, maxResults: 2 });
    const ops = call(site, "getCreateIssueMetaIssueTypes", { projectIdOrKey: "OPS" }).body as {
      issueTypes: IssueTypeMeta[];
    };
    const foreign = call(site, "getCreateIssueMetaIssueTypeId", {
      projectIdOrKey: "ENG",
      issueTypeId: ops.issueTypes[0]!.id,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      errorMessages: [
        `Issue type with id '${ops.issueTypes[0]!.id}' does not exist or is not valid for project 'ENG'.`,
      ],
      errors: {},
    });
  });
});
