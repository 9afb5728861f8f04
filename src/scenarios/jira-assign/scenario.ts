/**
 * jira-assign-v1: assign an issue to a person named in the prompt. Level 1 names the issue by key
 * (sometimes by summary) and any person; level 2 names it by a summary that has a look-alike in its project
 * and always a person with a namesake. Level 3 is multi-hop: the issue is "the <project> issue assigned to
 * <person>" (person → accountId → issue), and the task either hands it to someone else, unassigns it, or
 * names a person who is not on the site (a near-namesake of someone who is): that task must be refused,
 * and assigning anyone is a collateral change.
 *
 * Expectation: the issue's assigneeId (the accountId, or null to unassign); reads of the issue or the
 * person validate. Points 0.7 / 0.15 / 0.15 (refusals 0.85 / 0.15 / 0). Budget: the reference's calls + 3.
 */
import type { Expectation } from "../../reward/expectation.ts";
import type { JiraUser } from "../../sandbox/jira/model.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { refusalExpectation, workExpectation } from "../expectation-parts.ts";
import { accountIdOf, issueKeyOf } from "../jira-lookups.ts";
import {
  absentPeople,
  describeIssue,
  type IssueClue,
  type IssueRefKind,
  issueClue,
  issuesForLevel,
  keyOrSummary,
  lookupCalls,
  people,
  variantFor,
} from "../jira-picks.ts";
import { capitalise, paraphrase } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";

type Variant = "assign" | "unassign" | "refuse";

export interface AssignExpected {
  variant: Variant;
  issueId: string;
  issue: IssueClue;
  /** The person the prompt names (absent from the site when refusing); null when unassigning. */
  assigneeName: string | null;
  /** Their accountId; null when unassigning or refusing. */
  assigneeAccountId: string | null;
  /** Calls the reference makes (the budget is 3 more). */
  referenceCalls: number;
}

const ASSIGN = [
  "Assign {issue} to {person}.",
  "Please make {person} the assignee of {issue}.",
  "{person} is taking over {issue}; update the assignee.",
  "Could you give {issue} to {person}?",
  "Reassign {issue} to {person}, please.",
  "Set the assignee of {issue} to {person}.",
];

const UNASSIGN = [
  "Unassign {issue}; nobody should own it for now.",
  "Please remove the assignee from {issue}.",
  "{issue} should go back to the unassigned pool.",
  "Clear the assignee of {issue}.",
];

export default defineScenario<AssignExpected>({
  id: "jira-assign-v1",
  description:
    "Assign a Jira issue (by key, summary or current assignee) to a person named in the prompt, or unassign it; refuse when the person does not exist.",
  tools: ["jira_get_issue", "jira_search_issues", "jira_find_users", "jira_assign_issue"],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index, bound }) {
    const variant: Variant =
      level < 3 ? "assign" : variantFor(split, index, ["assign", "unassign", "refuse"] as const);
    const kind: IssueRefKind = bound
      ? "key"
      : level === 3
        ? variant === "refuse"
          ? "summary"
          : "assignee"
        : keyOrSummary(level, random);
    const issue = bound ? site.get("issues", bound.id)! : random.pick(issuesForLevel(site, level));
    const exclude = [issue.assigneeId ?? ""];
    const candidates = people(site, { namesakes: level >= 2 || random.next() < 0.5, exclude });
    const person: JiraUser | null = variant === "assign" ? random.pick(candidates) : null;
    const assigneeName =
      variant === "assign"
        ? person!.displayName
        : variant === "refuse"
          ? random.pick(absentPeople(split))
          : null;
    const ref = bound?.describe ?? describeIssue(site, issue, kind);
    const prompt =
      variant === "unassign"
        ? paraphrase(random, UNASSIGN, { issue: ref })
        : paraphrase(random, ASSIGN, { issue: ref, person: assigneeName! });
    return {
      prompt: capitalise(prompt),
      expected: {
        variant,
        issueId: issue.id,
        issue: issueClue(site, issue, kind),
        assigneeName,
        assigneeAccountId: person?.accountId ?? null,
        referenceCalls: lookupCalls(kind) + (variant === "unassign" ? 0 : 1) + (variant === "refuse" ? 1 : 3),
      },
    };
  },
  expect({ expected: e }): Expectation {
    const budget = e.referenceCalls + 3;
    if (e.variant === "refuse")
      return refusalExpectation(
        `Nobody named ${e.assigneeName} is on the site, so ${e.issue.key} cannot be assigned to them.`,
        [{ table: "issues", id: e.issueId }],
        budget,
        [e.assigneeName!],
      );
    return workExpectation(
      [
        {
          kind: "update",
          ref: e.issue.key,
          label:
            e.variant === "unassign"
              ? `${e.issue.key} is unassigned`
              : `${e.issue.key} is assigned to ${e.assigneeName}`,
          table: "issues",
          id: e.issueId,
          fields: { assigneeId: { equals: e.assigneeAccountId } },
        },
      ],
      [
        { table: "issues", id: e.issueId },
        ...(e.assigneeAccountId ? [{ table: "users" as const, id: e.assigneeAccountId }] : []),
      ],
      budget,
    );
  },
  introduces: (e) => (e.variant === "refuse" ? [e.assigneeName!] : []),
  *reference({ expected: e }) {
    const key = yield* issueKeyOf(e.issue);
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["summary", "assignee"] });
    if (e.variant === "refuse") {
      const accountId = yield* accountIdOf(e.assigneeName!);
      if (accountId !== null) throw new Error(`${e.assigneeName} unexpectedly exists`);
      return `There is no one named ${e.assigneeName} on this site, so I left ${key} unchanged. Who should it go to?`;
    }
    const accountId = e.variant === "assign" ? yield* accountIdOf(e.assigneeName!) : null;
    yield call("jira_assign_issue", { issueIdOrKey: key, accountId });
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["assignee"] });
    return e.variant === "unassign"
      ? `${key} is now unassigned.`
      : `${key} is now assigned to ${e.assigneeName}.`;
  },
  aliasSolutions,
  step: { consumes: ["issue"] },
});
