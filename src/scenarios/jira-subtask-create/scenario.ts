/**
 * jira-subtask-create-v1: create a sub-task under a parent issue with a summary, an assignee given by
 * display name (often one with a namesake: "Alex Chen" / "Alexa Chen") and a priority. The sub-task
 * type's name ("Sub-task" in ENG/WEB, "Subtask" in OPS/MOB) and id differ per project.
 * Level 1 names the parent by key. Level 2 names it by summary and project name; the summary has a
 * look-alike in the same project and an exact twin (added by the generator) in another project, and
 * the assignee always has a namesake.
 *
 * Expectation (both levels): one issue created with the exact project, parent, sub-task type, summary,
 * assignee and priority (fields 0.7: project 0.05, parent 0.15, type 0.15, summary 0.1, assignee 0.15,
 * priority 0.1); every other field as the API sets it (reporter = the agent, no labels, no due date...).
 * Validate 0.15: a read of the parent, the project or the assignee before creating; verify 0.15.
 * Budget: the reference's calls + 3 (8 at level 1, 9 at level 2). The assignee is never the project
 * lead and the priority never Medium, so leaving either field out (the lead / Medium by default) fails.
 * Introduces the summary (drawn from split-disjoint pools).
 */

import type { Expectation } from "../../reward/expectation.ts";
import { AGENT_ACCOUNT_ID } from "../../sandbox/fixtures/default-site.ts";
import { DEFAULT_PRIORITY_ID, PRIORITIES } from "../../sandbox/jira/catalog.ts";
import type { Issue, JiraUser, Project } from "../../sandbox/jira/model.ts";
import { insertIssue, projectIssueTypes } from "../../sandbox/jira/store.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { NAMESAKES } from "../jira-picks.ts";
import { paraphrase } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";
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
  generate({ site, random, level, split, bound }) {
    const parent = bound ? site.get("issues", bound.id)! : pickParent(site, random, level);
    const project = site.get("projects", parent.projectId)!;
    if (level === 2) addTwin(site, random, parent);
    const type = projectIssueTypes(site, project.id).find((t) => t.subtask)!;
    const assignee = pickAssignee(site, random, project, level);
    const priority = random.pick(PRIORITIES.filter((p) => p.id !== DEFAULT_PRIORITY_ID));
    const summary = random.pick(subtaskSummaries(split));
    const byKey = level === 1;
    const ref =
      bound?.describe ??
      (byKey ? parent.key : `the issue "${parent.summary}" in the ${project.name} project`);
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
  expect({ expected: e }): Expectation {
    return {
      entities: [
        {
          kind: "create",
          ref: "sub-task",
          label: `a ${e.subtaskTypeName} "${e.summary}" under ${e.parentKey}`,
          table: "issues",
          fields: {
            projectId: { equals: e.projectId },
            parentId: { equals: e.parentId },
            issueTypeId: { equals: e.subtaskTypeId },
            summary: { equals: e.summary },
            assigneeId: { equals: e.assigneeAccountId },
            priorityId: { equals: e.priorityId },
          },
        },
      ],
      validate: [
        { table: "issues", id: e.parentId },
        { table: "projects", id: e.projectId },
        { table: "users", id: e.assigneeAccountId },
      ],
      budget: (e.byKey ? 5 : 6) + 3,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
      weights: {
        "sub-task.projectId": 0.05,
        "sub-task.parentId": 0.15,
        "sub-task.issueTypeId": 0.15,
        "sub-task.summary": 0.1,
        "sub-task.assigneeId": 0.15,
        "sub-task.priorityId": 0.1,
      },
    };
  },
  introduces: (e) => [e.summary],
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
  aliasSolutions,
  step: { produces: { kind: "issue", table: "issues" }, consumes: ["issue"] },
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
  // Level 2 always assigns one of a namesake pair.
  const namesakes = people.filter((u) => (NAMESAKES as readonly string[]).includes(u.displayName));
  return random.pick(level === 2 || random.next() < 0.5 ? namesakes : people);
}
