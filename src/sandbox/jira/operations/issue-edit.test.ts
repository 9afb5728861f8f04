import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { fieldErrors, getIssue, type IssueBean, rejected } from "../../../../test/support/jira-requests.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import type { Site } from "../../site.ts";

const NOT_FOUND = {
  errorMessages: ["Issue does not exist or you do not have permission to see it."],
  errors: {},
};

function people(site: Site) {
  const users = [...site.values("users")];
  return {
    active: users.filter((u) => u.active && u.accountId !== AGENT_ACCOUNT_ID),
    inactive: users.find((u) => !u.active)!,
  };
}

/** A standard ENG issue without sub-tasks, and a sub-task of ENG. */
function engIssues(site: Site) {
  const issues = [...site.values("issues")].filter((i) => i.key.startsWith("ENG-"));
  const subtask = issues.find((i) => i.parentId !== null)!;
  const parents = new Set(issues.map((i) => i.parentId));
  const standard = issues.filter((i) => i.parentId === null && !parents.has(i.id));
  return { subtask, standard };
}

describe("editIssue", () => {
  it("sets fields, applies update operations and bumps updated", () => {
    const site = createSite({ seed: 1 });
    const before = getIssue(site, "ENG-2");
    const res = call(
      site,
      "editIssue",
      { issueIdOrKey: "eng-2" },
      {
        fields: { summary: "Renamed", priority: { id: "1" }, description: paragraphDoc("New text") },
        update: { labels: [{ add: "triaged" }, { add: "zeta" }, { remove: "zeta" }] },
      },
    );
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const after = getIssue(site, "ENG-2");
    expect(after.fields.summary).toBe("Renamed");
    expect(after.fields.priority.name).toBe("Highest");
    expect(after.fields.description).toEqual(paragraphDoc("New text"));
    expect(after.fields.labels).toEqual([...new Set([...before.fields.labels, "triaged"])].sort());
    expect(after.fields.updated > before.fields.updated).toBe(true);
    expect(after.fields.created).toBe(before.fields.created);
  });

  it("supports set operations, returnIssue and comment add", () => {
    const site = createSite({ seed: 1 });
    const { active } = people(site);
    const res = call(
      site,
      "editIssue",
      { issueIdOrKey: "ENG-3", returnIssue: "true" },
      {
        update: {
          summary: [{ set: "Via update" }],
          labels: [{ set: ["a", "b"] }],
          assignee: [{ set: { accountId: active[0]!.accountId } }],
          priority: [{ set: { name: "low" } }],
          description: [{ set: null }],
          comment: [{ add: { body: paragraphDoc("Edited.") } }],
        },
      },
    );
    expect(res.status).toBe(200);
    const bean = res.body as IssueBean;
    expect(bean.key).toBe("ENG-3");
    expect(bean.fields).toMatchObject({ summary: "Via update", labels: ["a", "b"], description: null });
    expect(bean.fields.assignee.accountId).toBe(active[0]!.accountId);
    expect(bean.fields.priority.name).toBe("Low");
    const last = bean.fields.comment.comments.at(-1);
    expect(last.body).toEqual(paragraphDoc("Edited."));
    expect(last.author.accountId).toBe(AGENT_ACCOUNT_ID);
  });

  it("moves a sub-task to another parent and ignores a transition in the body", () => {
    const site = createSite({ seed: 1 });
    const { subtask, standard } = engIssues(site);
    const target = standard[0]!;
    call(
      site,
      "editIssue",
      { issueIdOrKey: subtask.key },
      {
        fields: { parent: { id: target.id } },
        transition: { id: "31" },
      },
    );
    const child = getIssue(site, subtask.key);
    expect(child.fields.parent.key).toBe(target.key);
    expect(child.fields.status.id).toBe(subtask.statusId);
    expect(getIssue(site, target.key).fields.subtasks.map((s: IssueBean) => s.key)).toEqual([subtask.key]);
  });

  it("changes the issue type within the same level", () => {
    const site = createSite({ seed: 1 });
    const { standard } = engIssues(site);
    call(site, "editIssue", { issueIdOrKey: standard[0]!.key }, { fields: { issuetype: { name: "Bug" } } });
    expect(getIssue(site, standard[0]!.key).fields.issuetype.name).toBe("Bug");
  });

  it("leaves updated alone when nothing changes", () => {
    const site = createSite({ seed: 1 });
    const before = getIssue(site, "ENG-4");
    call(site, "editIssue", { issueIdOrKey: "ENG-4" }, { fields: { summary: before.fields.summary } });
    expect(getIssue(site, "ENG-4").fields.updated).toBe(before.fields.updated);
  });

  it("answers errors with Jira's bodies and changes nothing", () => {
    const site = createSite({ seed: 1 });
    const { subtask, standard } = engIssues(site);
    const { inactive } = people(site);
    expect(
      rejected(site, "editIssue", { issueIdOrKey: "ENG-9999" }, { fields: { summary: "x" } }, 404),
    ).toEqual(NOT_FOUND);
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: "ENG-2" },
        {
          fields: {
            summary: "",
            project: { key: "OPS" },
            status: { name: "Done" },
            assignee: { accountId: inactive.accountId },
            labels: ["ok", "not ok"],
          },
          update: { resolution: [{ set: { name: "Done" } }] },
        },
      ),
    ).toEqual(
      fieldErrors({
        summary: "You must specify a summary of the issue.",
        project: "Field 'project' cannot be set. It is not on the appropriate screen, or unknown.",
        status: "Field 'status' cannot be set. It is not on the appropriate screen, or unknown.",
        resolution: "Field 'resolution' cannot be set. It is not on the appropriate screen, or unknown.",
        assignee: `User '${inactive.displayName}' cannot be assigned issues.`,
        labels: "The label 'not ok' contains spaces which is invalid.",
      }),
    );
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: "ENG-2" },
        { fields: { labels: [] }, update: { labels: [{ add: "x" }] } },
      ),
    ).toEqual(fieldErrors({ labels: "Field 'labels' cannot be set in both 'fields' and 'update'." }));
    // Field names that are also built-in object members are unknown fields like any other.
    const unknown = (field: string) => ({
      [field]: `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.`,
    });
    expect(
      rejected(site, "editIssue", { issueIdOrKey: "ENG-2" }, { update: { toString: [{ set: "x" }] } }),
    ).toEqual(fieldErrors(unknown("toString")));
    expect(rejected(site, "editIssue", { issueIdOrKey: "ENG-2" }, { fields: { valueOf: "x" } })).toEqual(
      fieldErrors(unknown("valueOf")),
    );
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: subtask.key },
        { update: { parent: [{ set: { none: true } }] } },
      ),
    ).toEqual(fieldErrors({ parent: "Issue type is a sub-task but parent issue key or id not specified." }));
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: standard[0]!.key },
        { fields: { parent: { key: standard[1]!.key } } },
      ),
    ).toEqual(fieldErrors({ parent: "Given parent work item does not belong to appropriate hierarchy." }));
    expect(
      rejected(site, "editIssue", { issueIdOrKey: subtask.key }, { fields: { parent: { key: "OPS-1" } } }),
    ).toEqual(fieldErrors({ parent: "Sub-tasks must be created in the same project as the parent." }));
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: standard[0]!.key },
        { fields: { issuetype: { name: "Sub-task" } } },
      ),
    ).toEqual(fieldErrors({ issuetype: "The issue type selected is invalid." }));
    expect(
      rejected(site, "editIssue", { issueIdOrKey: "ENG-2" }, { update: { summary: [{ add: "x" }] } }),
    ).toEqual(fieldErrors({ summary: "The operation 'add' is not supported for the field 'summary'." }));
    expect(
      rejected(
        site,
        "editIssue",
        { issueIdOrKey: "ENG-2" },
        { update: { comment: [{ add: { body: "hi" } }] } },
      ),
    ).toEqual(
      fieldErrors({
        comment: "Operation value must be an Atlassian Document (see the Atlassian Document Format)",
      }),
    );
  });
});

describe("assignIssue", () => {
  it("assigns, unassigns and assigns the project default", () => {
    const site = createSite({ seed: 1 });
    const { active } = people(site);
    const who = active[3]!.accountId;
    expect(call(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { accountId: who }).status).toBe(204);
    const assigned = getIssue(site, "ENG-5");
    expect(assigned.fields.assignee.accountId).toBe(who);
    call(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { accountId: null });
    expect(getIssue(site, "ENG-5").fields.assignee).toBeNull();
    call(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { accountId: "-1" });
    const lead = [...site.values("projects")].find((p) => p.key === "ENG")!.leadAccountId;
    const final = getIssue(site, "ENG-5");
    expect(final.fields.assignee.accountId).toBe(lead);
    expect(final.fields.updated >= assigned.fields.updated).toBe(true);
  });

  it("rejects unknown users, inactive users, missing ids and unknown issues", () => {
    const site = createSite({ seed: 1 });
    const { inactive } = people(site);
    expect(rejected(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { accountId: "nobody" })).toEqual(
      fieldErrors({ assignee: "Specified user does not exist or you do not have required permissions" }),
    );
    expect(
      rejected(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { accountId: inactive.accountId }),
    ).toEqual(fieldErrors({ assignee: `User '${inactive.displayName}' cannot be assigned issues.` }));
    expect(rejected(site, "assignIssue", { issueIdOrKey: "ENG-5" }, {})).toEqual(
      fieldErrors({ accountId: "The accountId of the user to assign must be specified." }),
    );
    expect(rejected(site, "assignIssue", { issueIdOrKey: "ENG-5" }, { name: "alex" })).toEqual({
      errorMessages: ["'accountId' must be the only user identifying query parameter in GDPR strict mode."],
      errors: {},
    });
    expect(rejected(site, "assignIssue", { issueIdOrKey: "NOPE-1" }, { accountId: null }, 404)).toEqual(
      NOT_FOUND,
    );
  });
});
