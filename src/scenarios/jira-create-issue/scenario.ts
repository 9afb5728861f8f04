/**
 * jira-create-issue-v1: create an issue of a named type in the right project with a summary, a rich-text
 * description, a priority and labels. Level 1 names the project by key and gives a one-paragraph
 * description. Level 2 names the project by its name, gives two paragraphs, and an issue with the same
 * summary already exists in another project (it must not be taken for the new one). Level 3 names the project
 * by an issue it holds (JQL → issue → project key); one task in three asks for
 * an issue type the project does not have ("Incident"): it must be refused, and creating any issue is a
 * collateral change. Issue
 * type ids differ per project, so the type must be looked up in the project.
 *
 * Expectation: one issue created in the project with the type, summary, description (visible text),
 * priority and labels (as a set); every other field holds the API's default. Reads of the project
 * validate. Points 0.7 / 0.15 / 0.15 (refusals 0.85 / 0.15 / 0). Budget: the reference's calls + 3.
 */
import type { Expectation } from "../../reward/expectation.ts";
import { DEFAULT_PRIORITY_ID, PRIORITIES } from "../../sandbox/jira/catalog.ts";
import { insertIssue, projectIssueTypes } from "../../sandbox/jira/store.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { refusalExpectation, workExpectation } from "../expectation-parts.ts";
import { newLabels } from "../jira-edit-fields/pools.ts";
import { searchAll } from "../jira-lookups.ts";
import { jqlString, refusesAtLevel3, topLevelIssues } from "../jira-picks.ts";
import { fill } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { ideas } from "./pools.ts";

/** Issue types no project here has (refusals). */
const MISSING_TYPES = ["Incident", "Spike", "Improvement", "Change Request"];

type ProjectRef = "key" | "name" | "issue";

export interface CreateExpected {
  refuse: boolean;
  projectRef: ProjectRef;
  projectId: string;
  projectKey: string;
  projectName: string;
  /** Level 3: the summary of an issue in the project (the prompt names the project by it). */
  anchorSummary: string | null;
  issueTypeName: string;
  issueTypeId: string | null;
  summary: string;
  paragraphs: string[];
  priorityName: string;
  priorityId: string;
  labels: string[];
}

const PROMPTS = [
  'Create a {type} in {project} titled "{summary}" with priority {priority} and {labels}. Description: "{description}"',
  'Please open a new {type} in {project}: summary "{summary}", priority {priority}, {labels}. Use this description: "{description}"',
  'We need a {type} in {project} called "{summary}". Set priority {priority}, add {labels}, and describe it as: "{description}"',
  'File a {priority}-priority {type} in {project} named "{summary}" with {labels}. Description: "{description}"',
];

export default defineScenario<CreateExpected>({
  id: "jira-create-issue-v1",
  description:
    "Create a Jira issue of a named type in a project given by key, name or one of its issues, with summary, rich-text description, priority and labels; refuse an issue type the project lacks.",
  tools: [
    "jira_search_projects",
    "jira_search_issues",
    "jira_get_issue_types",
    "jira_create_issue",
    "jira_get_issue",
  ],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index }) {
    const refuse = refusesAtLevel3(level, split, index);
    const projectRef: ProjectRef = level === 1 ? "key" : level === 2 ? "name" : refuse ? "name" : "issue";
    const projects = [...site.values("projects")];
    const project = random.pick(projects);
    const issues = topLevelIssues(site);
    const anchor = random.pick(
      issues.filter(
        (i) => i.projectId === project.id && issues.filter((o) => o.summary === i.summary).length === 1,
      ),
    );
    const [summary, ...paragraphs] = random.pick(ideas(split));
    const multi = level >= 2;
    const type = random.pick(refuse ? MISSING_TYPES : ["Task", "Bug", "Story"]);
    const priority = random.pick(PRIORITIES.filter((p) => p.id !== DEFAULT_PRIORITY_ID));
    const labels = random.shuffle(newLabels(split)).slice(0, random.int(1, 2));
    if (level === 2) addLookalike(site, random, project.id, summary!);
    const where =
      projectRef === "key"
        ? `project ${project.key}`
        : projectRef === "name"
          ? `the ${project.name} project`
          : `the project that holds the issue "${anchor.summary}"`;
    const description = multi ? paragraphs.join(" ") : paragraphs[0]!;
    const prompt = fill(random.pick(PROMPTS), {
      type: type.toLowerCase(),
      project: where,
      summary,
      priority: priority.name,
      labels: `${labels.length === 1 ? "the label" : "the labels"} ${labels.map((l) => `"${l}"`).join(" and ")}`,
      description,
    });
    return {
      prompt,
      expected: {
        refuse,
        projectRef,
        projectId: project.id,
        projectKey: project.key,
        projectName: project.name,
        anchorSummary: projectRef === "issue" ? anchor.summary : null,
        issueTypeName: type,
        issueTypeId: refuse ? null : projectIssueTypes(site, project.id).find((t) => t.name === type)!.id,
        summary,
        paragraphs: multi ? [...paragraphs] : [paragraphs[0]!],
        priorityName: priority.name,
        priorityId: priority.id,
        labels,
      },
    };
  },
  expect({ expected: e }): Expectation {
    const lookups = e.projectRef === "key" ? 0 : 1;
    const budget = lookups + (e.refuse ? 1 : 3) + 3;
    if (e.refuse)
      return refusalExpectation(
        `Project ${e.projectKey} has no '${e.issueTypeName}' issue type.`,
        [{ table: "projects", id: e.projectId }],
        budget,
        [e.issueTypeName],
      );
    return workExpectation(
      [
        {
          kind: "create",
          ref: "the new issue",
          label: `a ${e.issueTypeName} "${e.summary}" in ${e.projectKey}`,
          table: "issues",
          fields: {
            projectId: { equals: e.projectId },
            issueTypeId: { equals: e.issueTypeId },
            summary: { equals: e.summary },
            description: { visibleText: e.paragraphs.join("\n\n") },
            priorityId: { equals: e.priorityId },
            labels: { set: e.labels },
          },
        },
      ],
      [{ table: "projects", id: e.projectId }],
      budget,
    );
  },
  introduces: (e) => [e.summary, ...e.labels],
  *reference({ expected: e }) {
    let key = e.projectKey;
    if (e.projectRef === "issue") {
      const found = yield* searchAll(`summary ~ ${jqlString(e.anchorSummary!)}`, ["summary"]);
      key = found.find((i) => i.fields.summary === e.anchorSummary)!.key.split("-")[0]!;
    } else if (e.projectRef === "name") {
      const found = yield call("jira_search_projects", { query: e.projectName });
      const values = (found.body as { values: { key: string; name: string }[] }).values;
      key = values.find((p) => p.name === e.projectName)!.key;
    }
    const types = yield call("jira_get_issue_types", { projectIdOrKey: key });
    const typeList = (types.body as { issueTypes: { id: string; name: string }[] }).issueTypes;
    const typeId = typeList.find((t) => t.name === e.issueTypeName)?.id;
    if (typeId === undefined)
      return `Project ${key} has no '${e.issueTypeName}' issue type (only ${typeList.map((t) => t.name).join(", ")}), so I created nothing.`;
    const description = {
      type: "doc",
      version: 1,
      content: e.paragraphs.map((text) => ({ type: "paragraph", content: [{ type: "text", text }] })),
    };
    const created = yield call("jira_create_issue", {
      fields: {
        project: { key },
        issuetype: { id: typeId },
        summary: e.summary,
        description,
        priority: { name: e.priorityName },
        labels: e.labels,
      },
    });
    const newKey = (created.body as { key: string }).key;
    yield call("jira_get_issue", {
      issueIdOrKey: newKey,
      fields: ["summary", "issuetype", "priority", "labels"],
    });
    return `Created ${newKey}.`;
  },
  aliasSolutions,
  step: { produces: { kind: "issue", table: "issues" } },
});

/** Level 2 distractor: an issue with the requested summary already exists in another project. */
function addLookalike(site: Site, random: Random, projectId: string, summary: string): void {
  const other = random.pick([...site.values("projects")].filter((p) => p.id !== projectId));
  const {
    id: _id,
    key: _key,
    projectId: _p,
    ...fields
  } = random.pick(topLevelIssues(site).filter((i) => i.projectId === other.id));
  insertIssue(site, other, { ...fields, summary });
}
