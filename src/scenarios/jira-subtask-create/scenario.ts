/**
 * jira-subtask-create-v1: create a sub-task under a parent issue with a summary, an assignee given by
 * display name (often one with a namesake: "Alex Chen" / "Alexa Chen") and a priority. The sub-task
 * type's name ("Sub-task" in ENG/WEB, "Subtask" in OPS/MOB) and id differ per project.
 * Level 1 names the parent by key. Level 2 names it by summary and project name; the summary has a
 * look-alike in the same project and an exact twin (added by the generator) in another project, and
 * the assignee always has a namesake.
 *
 * Reward constants (both levels): R1 0.7 on the createIssue call — project 0.05, parent 0.15,
 * sub-task issue type 0.15, summary 0.1, assignee accountId 0.15, priority 0.1; R2 validate 0.15 (read
 * the parent, the project's create metadata or the assignee before creating), verify 0.15 (getIssue
 * on the new issue after creating). Budget: the reference's calls + 3 (8 at level 1, 9 at level 2).
 * Default penalties. State: exactly one issue created with the expected project, parent, type,
 * assignee, priority and summary; the parent's `updated` may change (this site does not bump it).
 * The assignee is never the project lead and the priority never Medium, so leaving either field out
 * (which gives the lead / Medium by default) fails the state check.
 */

import { equals, oneOf, sameText } from "../../reward/matchers.ts";
import { arg, type CallInput } from "../../reward/spec.ts";
import { allowChange, expectCreated } from "../../reward/state.ts";
import { AGENT_ACCOUNT_ID } from "../../sandbox/fixtures/default-site.ts";
import { DEFAULT_PRIORITY_ID, PRIORITIES } from "../../sandbox/jira/catalog.ts";
import type { Issue, JiraUser, Project } from "../../sandbox/jira/model.ts";
import { findIssue, insertIssue, projectIssueTypes } from "../../sandbox/jira/store.ts";
import { userMatchesQuery } from "../../sandbox/jira/user-query.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
import { subtaskSummaries } from "./pools.ts";

export interface SubtaskExpected {
  parentKey: string;
  parentId: string;
  parentSummary: string;
  /** Whether the prompt names the parent by key (else by summary and project name). */
  byKey: boolean;
  projectKey: string;
  projectId: string;
  subtaskTypeId: string;
  subtaskTypeName: string;
  summary: string;
  assigneeName: string;
  assigneeAccountId: string;
  priorityName: string;
  priorityId: string;
}

const PROMPTS = [
  'Create a sub-task under {parent} called "{summary}", assigned to {assignee}, with {priority} priority.',
  'Please add a sub-task "{summary}" to {parent}. Assign it to {assignee} and set the priority to {priority}.',
  'Break {parent} down a bit: it needs a sub-task "{summary}" for {assignee} (priority {priority}).',
  '{assignee} will take care of "{summary}". Log that as a sub-task of {parent} with priority {priority}.',
  'Can you open a {priority}-priority sub-task of {parent} named "{summary}" and give it to {assignee}?',
  'Add a child sub-task to {parent}: summary "{summary}", assignee {assignee}, priority {priority}.',
  'We need a new sub-task on {parent}. Title it "{summary}", make {assignee} the assignee and mark it {priority}.',
];

/** Namesake pairs in the fixture's people pool; level 2 always assigns one of them. */
const NAMESAKES = ["Alex Chen", "Alexa Chen", "Sam Rivera", "Samantha Rivera", "Jordan Lee", "Jordan Leigh"];

export default defineScenario<SubtaskExpected>({
  id: "jira-subtask-create-v1",
  description:
    "Create a Jira sub-task under a parent issue with a summary, an assignee given by name and a priority.",
  tools: [
    "jira_get_issue",
    "jira_search_issues",
    "jira_get_issue_types",
    "jira_get_create_fields",
    "jira_find_users",
    "jira_create_issue",
  ],
  generate({ site, random, level, split }) {
    const parent = pickParent(site, random, level);
    const project = site.get("projects", parent.projectId)!;
    if (level === 2) addTwin(site, random, parent);
    const type = projectIssueTypes(site, project.id).find((t) => t.subtask)!;
    const assignee = pickAssignee(site, random, project, level);
    const priority = random.pick(PRIORITIES.filter((p) => p.id !== DEFAULT_PRIORITY_ID));
    const summary = random.pick(subtaskSummaries(split));
    const byKey = level === 1;
    const ref = byKey ? parent.key : `the issue "${parent.summary}" in the ${project.name} project`;
    const values = { parent: ref, summary, assignee: assignee.displayName, priority: priority.name };
    return {
      prompt: paraphrase(random.derive("prompt"), PROMPTS, values),
      expected: {
        parentKey: parent.key,
        parentId: parent.id,
        parentSummary: parent.summary,
        byKey,
        projectKey: project.key,
        projectId: project.id,
        subtaskTypeId: type.id,
        subtaskTypeName: type.name,
        summary,
        assigneeName: assignee.displayName,
        assigneeAccountId: assignee.accountId,
        priorityName: priority.name,
        priorityId: priority.id,
      },
    };
  },
  reward({ expected: e }, site) {
    const param = (input: CallInput, name: string) => input.params[name];
    const isParent = (i: CallInput) => oneOf([e.parentKey, e.parentId]).test(param(i, "issueIdOrKey"));
    const isProject = (i: CallInput) => oneOf([e.projectKey, e.projectId]).test(param(i, "projectIdOrKey"));
    const isAssignee = (i: CallInput) => {
      const query = param(i, "query");
      const user = site.get("users", e.assigneeAccountId)!;
      return (
        param(i, "accountId") === e.assigneeAccountId ||
        (typeof query === "string" && query.trim() !== "" && userMatchesQuery(user, query))
      );
    };
    /** The new issue: any issue the task's site did not have (a read of it only succeeds once created). */
    const isNewIssue = (i: CallInput) => {
      const ref = param(i, "issueIdOrKey");
      return typeof ref === "string" && findIssue(site, ref) === undefined;
    };
    const f = "body.fields";
    return {
      mutations: [
        {
          label: `create a sub-task of ${e.parentKey}`,
          operationId: "createIssue",
          args: [
            arg("project", [`${f}.project.key`, `${f}.project.id`], oneOf([e.projectKey, e.projectId]), 0.05),
            arg(
              "parent",
              [`${f}.parent.key`, `${f}.parent.id`],
              oneOf([e.parentKey, e.parentId], `is ${e.parentKey}`),
              0.15,
            ),
            arg(
              "sub-task issue type",
              [`${f}.issuetype.id`, `${f}.issuetype.name`],
              oneOf([e.subtaskTypeId, e.subtaskTypeName]),
              0.15,
            ),
            arg("summary", `${f}.summary`, sameText(e.summary), 0.1),
            arg(
              "assignee accountId",
              [`${f}.assignee.accountId`, `${f}.assignee.id`],
              equals(e.assigneeAccountId),
              0.15,
            ),
            arg(
              "priority",
              [`${f}.priority.name`, `${f}.priority.id`],
              oneOf([e.priorityName, e.priorityId]),
              0.1,
            ),
          ],
        },
      ],
      validate: {
        points: 0.15,
        reads: [
          { label: "the parent issue", operationIds: ["getIssue"], target: isParent },
          {
            label: "the project's issue types or create fields",
            operationIds: ["getCreateIssueMetaIssueTypes", "getCreateIssueMetaIssueTypeId"],
            target: isProject,
          },
          { label: "the assignee", operationIds: ["findUsers"], target: isAssignee },
        ],
      },
      verify: {
        points: 0.15,
        reads: [{ label: "the new sub-task", operationIds: ["getIssue"], target: isNewIssue }],
      },
      budget: (e.byKey ? 5 : 6) + 3,
      state: [
        expectCreated(`a ${e.subtaskTypeName} "${e.summary}" under ${e.parentKey}`, "issues", {
          projectId: equals(e.projectId),
          parentId: equals(e.parentId),
          issueTypeId: equals(e.subtaskTypeId),
          summary: sameText(e.summary),
          assigneeId: equals(e.assigneeAccountId),
          priorityId: equals(e.priorityId),
        }),
        allowChange(
          `${e.parentKey}'s updated timestamp`,
          1,
          (c) =>
            c.kind === "updated" &&
            c.table === "issues" &&
            c.id === e.parentId &&
            c.fields.every((x) => x === "updated"),
        ),
      ],
    };
  },
  *reference({ expected: e }) {
    let parentKey = e.parentKey;
    if (!e.byKey) {
      const jql = `project = ${e.projectKey} AND summary ~ "${e.parentSummary.replace(/"/g, '\\"')}"`;
      const found = yield call("jira_search_issues", { jql, fields: ["summary"] });
      const issues = (found.body as { issues: { key: string; fields: { summary: string } }[] }).issues;
      parentKey = issues.find((i) => i.fields.summary === e.parentSummary)!.key;
    }
    const parent = yield call("jira_get_issue", {
      issueIdOrKey: parentKey,
      fields: ["summary", "project", "issuetype"],
    });
    const projectKey = (parent.body as { fields: { project: { key: string } } }).fields.project.key;
    const types = yield call("jira_get_issue_types", { projectIdOrKey: projectKey });
    const typeId = (types.body as { issueTypes: { id: string; subtask: boolean }[] }).issueTypes.find(
      (t) => t.subtask,
    )!.id;
    const users = yield call("jira_find_users", { query: e.assigneeName });
    const accountId = (users.body as JiraUser[]).find((u) => u.displayName === e.assigneeName)!.accountId;
    const created = yield call("jira_create_issue", {
      fields: {
        project: { key: projectKey },
        parent: { key: parentKey },
        issuetype: { id: typeId },
        summary: e.summary,
        assignee: { accountId },
        priority: { name: e.priorityName },
      },
    });
    const key = (created.body as { key: string }).key;
    yield call("jira_get_issue", {
      issueIdOrKey: key,
      fields: ["summary", "parent", "issuetype", "assignee", "priority"],
    });
    return `Created ${key} under ${parentKey}: "${e.summary}", assigned to ${e.assigneeName}, priority ${e.priorityName}.`;
  },
});

const prefix = (s: string) => s.split(" ").slice(0, 2).join(" ");

/** Level 1: any top-level issue; level 2: one whose summary has a look-alike in its project. */
function pickParent(site: Site, random: Random, level: number): Issue {
  const issues = [...site.values("issues")].filter((i) => i.parentId === null);
  if (level === 1) return random.pick(issues);
  return random.pick(
    issues.filter((i) =>
      issues.some((o) => o !== i && o.projectId === i.projectId && prefix(o.summary) === prefix(i.summary)),
    ),
  );
}

/** Level 2 distractor: an issue with the parent's exact summary in another project. */
function addTwin(site: Site, random: Random, parent: Issue): void {
  const others = [...site.values("projects")].filter((p) => p.id !== parent.projectId);
  const project = random.pick(others);
  const type = projectIssueTypes(site, project.id).find((t) => t.name === "Task")!;
  const { id: _id, key: _key, projectId: _projectId, ...fields } = parent;
  insertIssue(site, project, { ...fields, issueTypeId: type.id });
}

/** An active person other than the project lead (a namesake at level 2, and half the time at level 1). */
function pickAssignee(site: Site, random: Random, project: Project, level: number): JiraUser {
  const people = [...site.values("users")].filter(
    (u) => u.active && u.accountId !== project.leadAccountId && u.accountId !== AGENT_ACCOUNT_ID,
  );
  const namesakes = people.filter((u) => NAMESAKES.includes(u.displayName));
  return random.pick(level === 2 || random.next() < 0.5 ? namesakes : people);
}
