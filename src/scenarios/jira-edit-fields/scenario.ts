/**
 * jira-edit-fields-v1: set an issue's priority, add (and at level 2+ remove) labels and set a due date,
 * touching nothing else. Level 1 names the issue by key; level 2 by a summary with a look-alike in its
 * project, and also removes a label the issue has (the generator gives it one when it has none). Level 3
 * finds the issue through its assignee (person → accountId → issue); one task in three asks for a priority
 * the site does not have ("Urgent"): it must be refused, and any edit is a collateral change.
 *
 * Expectation: the issue's priorityId, its labels as a set (kept ones, plus added, minus removed) and its
 * due date; reads of the issue validate. Points 0.7 / 0.15 / 0.15 (refusals 0.85 / 0.15 / 0). Budget: the
 * reference's calls + 3.
 */
import type { Expectation } from "../../reward/expectation.ts";
import { ISSUE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { PRIORITIES } from "../../sandbox/jira/catalog.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { refusalExpectation, workExpectation } from "../expectation-parts.ts";
import { issueKeyOf } from "../jira-lookups.ts";
import {
  describeIssue,
  type IssueClue,
  type IssueRefKind,
  issueClue,
  issuesForLevel,
  lookupCalls,
  refusesAtLevel3,
} from "../jira-picks.ts";
import { capitalise, fill } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { dueDate, newLabels } from "./pools.ts";

/** Priorities the site does not have (refusals). */
const MISSING_PRIORITIES = ["Urgent", "Critical", "Blocker", "P0"];

export interface EditExpected {
  refuse: boolean;
  issueId: string;
  issue: IssueClue;
  priorityName: string;
  /** Null for a refusal. */
  priorityId: string | null;
  addLabel: string | null;
  removeLabel: string | null;
  /** The labels the issue must end with. */
  labels: string[];
  duedate: string | null;
  referenceCalls: number;
}

const OPENINGS = [
  "Please update {issue}: ",
  "A few changes to {issue}: ",
  "Can you edit {issue}? ",
  "For {issue}, ",
];

export default defineScenario<EditExpected>({
  id: "jira-edit-fields-v1",
  description:
    "Set a Jira issue's priority, add and remove labels and set a due date, changing nothing else; refuse a priority the site lacks.",
  tools: ["jira_get_issue", "jira_search_issues", "jira_find_users", "jira_edit_issue"],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index }) {
    const refuse = refusesAtLevel3(level, split, index);
    const kind: IssueRefKind = level === 1 ? "key" : level === 2 ? "summary" : "assignee";
    let issue: Issue = random.pick(issuesForLevel(site, level));
    const remove = level >= 2 && !refuse;
    if (remove && issue.labels.length === 0) {
      issue = { ...issue, labels: [random.pick(ISSUE_LABELS)] };
      site.put("issues", issue.id, issue);
    }
    const opening = fill(random.pick(OPENINGS), { issue: describeIssue(site, issue, kind) });
    const clue = issueClue(site, issue, kind);
    const lookups = lookupCalls(kind);
    if (refuse) {
      const missing = random.pick(MISSING_PRIORITIES);
      return {
        prompt: capitalise(`${opening}set its priority to ${missing}.`),
        expected: {
          refuse,
          issueId: issue.id,
          issue: clue,
          priorityName: missing,
          priorityId: null,
          addLabel: null,
          removeLabel: null,
          labels: issue.labels,
          duedate: issue.duedate,
          referenceCalls: lookups + 1,
        },
      };
    }
    const priority = random.pick(PRIORITIES.filter((p) => p.id !== issue.priorityId));
    const addLabel = random.pick(newLabels(split));
    const removeLabel = remove ? random.pick(issue.labels) : null;
    const due = dueDate(random.int(1, 12), random.int(1, 28));
    const parts = [
      `set the priority to ${priority.name}`,
      `add the label "${addLabel}"`,
      ...(removeLabel ? [`remove the label "${removeLabel}"`] : []),
      `make it due on ${random.next() < 0.5 ? due.words : due.iso}`,
    ];
    const order = random.shuffle(parts);
    const list = `${order.slice(0, -1).join(", ")} and ${order.at(-1)}`;
    return {
      prompt: capitalise(`${opening}${list}. Leave everything else as it is.`),
      expected: {
        refuse,
        issueId: issue.id,
        issue: clue,
        priorityName: priority.name,
        priorityId: priority.id,
        addLabel,
        removeLabel,
        labels: [...issue.labels.filter((l) => l !== removeLabel), addLabel],
        duedate: due.iso,
        referenceCalls: lookups + 3,
      },
    };
  },
  expect({ expected: e }): Expectation {
    const budget = e.referenceCalls + 3;
    const validate = [{ table: "issues" as const, id: e.issueId }];
    if (e.refuse)
      return refusalExpectation(`The site has no '${e.priorityName}' priority.`, validate, budget, [
        e.priorityName,
      ]);
    return workExpectation(
      [
        {
          kind: "update",
          ref: e.issue.key,
          label: `${e.issue.key} has priority ${e.priorityName}, labels ${e.labels.join(", ")} and due date ${e.duedate}`,
          table: "issues",
          id: e.issueId,
          fields: {
            priorityId: { equals: e.priorityId },
            labels: { set: e.labels },
            duedate: { equals: e.duedate },
          },
        },
      ],
      validate,
      budget,
    );
  },
  introduces: (e) => (e.addLabel ? [e.addLabel] : []),
  *reference({ expected: e }) {
    const key = yield* issueKeyOf(e.issue);
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["priority", "labels", "duedate"] });
    if (e.refuse)
      return `There is no '${e.priorityName}' priority on this site (Highest, High, Medium, Low, Lowest), so I left ${key} unchanged.`;
    // The whole label set at once (the `update` add/remove form is the other legal route).
    yield call("jira_edit_issue", {
      issueIdOrKey: key,
      fields: { priority: { name: e.priorityName }, duedate: e.duedate, labels: e.labels },
    });
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["priority", "labels", "duedate"] });
    return `Updated ${key}: priority ${e.priorityName}, labels ${e.labels.join(", ")}, due ${e.duedate}.`;
  },
  aliasSolutions,
});
