/**
 * jira-comment-v1: add a comment with given text to an issue. Level 1 names the issue by key (sometimes by
 * summary); level 2 by a summary with a look-alike in its project, and every other task also @-mentions a
 * person with a namesake (an ADF mention node with their accountId). Level 3 is multi-hop: "the <project>
 * issue currently assigned to <person>" (person → accountId → JQL), with or without a mention; one task in
 * three names a person who has no issue in that project (but has some elsewhere): it must be refused, and
 * any comment is a collateral change.
 *
 * Expectation: one comment created on the issue whose visible text is the requested text (mentions are
 * not visible text) and whose mentions are exactly the requested person (none otherwise); reads of the issue validate. Points
 * 0.7 / 0.15 / 0.15 (refusals 0.85 / 0.15 / 0). Budget: the reference's calls + 3.
 */
import type { Expectation } from "../../reward/expectation.ts";
import type { JiraUser } from "../../sandbox/jira/model.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { refusalExpectation, workExpectation } from "../expectation-parts.ts";
import { accountIdOf, issueKeyOf, searchAll } from "../jira-lookups.ts";
import {
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
import { commentTexts } from "./pools.ts";

type Variant = "plain" | "mention" | "refuse";

export interface CommentExpected {
  variant: Variant;
  /** The issue commented on; for a refusal, the project searched (issueId null). */
  issueId: string | null;
  issue: IssueClue;
  text: string;
  mentionName: string | null;
  mentionAccountId: string | null;
  /** For a refusal: the accountId of the person who has no issue in the project. */
  absentAssigneeId: string | null;
  referenceCalls: number;
}

const PLAIN = [
  'Add a comment to {issue}: "{text}"',
  'Please comment on {issue} with "{text}"',
  'Leave a note on {issue} saying "{text}"',
  'Post this comment on {issue}: "{text}"',
  'Can you add the comment "{text}" to {issue}?',
];

const MENTION = [
  'Add a comment to {issue} that mentions {person} and says "{text}"',
  'Comment on {issue}, @-mentioning {person}: "{text}"',
  'Please leave a comment on {issue} for {person} (mention them) with the text "{text}"',
  'Post "{text}" as a comment on {issue} and mention {person} in it.',
];

export default defineScenario<CommentExpected>({
  id: "jira-comment-v1",
  description:
    "Add a comment with given text to a Jira issue found by key, summary or assignee, optionally @-mentioning a person; refuse when no issue matches.",
  tools: ["jira_get_issue", "jira_search_issues", "jira_find_users", "jira_get_comments", "jira_add_comment"],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index, bound }) {
    const variant: Variant =
      level === 1
        ? "plain"
        : variantFor(
            split,
            index,
            level === 2 ? (["plain", "mention"] as const) : (["mention", "plain", "refuse"] as const),
          );
    const text = random.pick(commentTexts(split));
    const mention = variant === "mention" ? random.pick(people(site, { namesakes: true })) : null;
    const kind: IssueRefKind = bound ? "key" : level === 3 ? "assignee" : keyOrSummary(level, random);
    let clue: IssueClue;
    let issueId: string | null = null;
    let ref: string;
    let absentAssigneeId: string | null = null;
    if (variant === "refuse") {
      const [projectName, projectKey, person] = absentAssignment(site, random);
      clue = { kind, key: "", projectKey, summary: "", assigneeName: person.displayName };
      absentAssigneeId = person.accountId;
      ref = `the ${projectName} issue currently assigned to ${person.displayName}`;
    } else {
      const issue = bound ? site.get("issues", bound.id)! : random.pick(issuesForLevel(site, level));
      issueId = issue.id;
      clue = issueClue(site, issue, kind);
      ref = bound?.describe ?? describeIssue(site, issue, kind);
    }
    const prompt = mention
      ? paraphrase(random, MENTION, { issue: ref, person: mention.displayName, text })
      : paraphrase(random, PLAIN, { issue: ref, text });
    return {
      prompt: capitalise(prompt),
      expected: {
        variant,
        issueId,
        issue: clue,
        text,
        mentionName: mention?.displayName ?? null,
        mentionAccountId: mention?.accountId ?? null,
        absentAssigneeId,
        referenceCalls: lookupCalls(kind) + (variant === "refuse" ? 0 : 3) + (mention ? 1 : 0),
      },
    };
  },
  expect({ expected: e }): Expectation {
    const budget = e.referenceCalls + 3;
    if (e.variant === "refuse")
      return refusalExpectation(
        `${e.issue.assigneeName} has no issue in project ${e.issue.projectKey}, so there is nothing to comment on.`,
        [{ table: "users", id: e.absentAssigneeId! }],
        budget,
        [e.issue.assigneeName!],
      );
    return workExpectation(
      [
        {
          kind: "create",
          ref: `the comment on ${e.issue.key}`,
          label: `a comment on ${e.issue.key} saying "${e.text}"${e.mentionName ? ` that mentions ${e.mentionName}` : ""}`,
          table: "comments",
          fields: {
            issueId: { equals: e.issueId },
            body: {
              visibleText: e.text,
              mentions: e.mentionAccountId ? [e.mentionAccountId] : [],
            },
          },
        },
      ],
      [{ table: "issues", id: e.issueId! }],
      budget,
    );
  },
  introduces: (e) => [e.text],
  *reference({ expected: e }) {
    if (e.variant === "refuse") {
      const accountId = yield* accountIdOf(e.issue.assigneeName!);
      const found = yield* searchAll(`project = ${e.issue.projectKey} AND assignee = "${accountId}"`);
      if (found.length > 0) throw new Error("the refusal task's issue exists");
      return `${e.issue.assigneeName} has no issue assigned in project ${e.issue.projectKey}, so I did not add the comment. Which issue did you mean?`;
    }
    const key = yield* issueKeyOf(e.issue);
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["summary", "assignee"] });
    const mentionId = e.mentionName ? yield* accountIdOf(e.mentionName) : null;
    const inline = [
      ...(mentionId ? [{ type: "mention", attrs: { id: mentionId, text: `@${e.mentionName}` } }] : []),
      { type: "text", text: mentionId ? ` ${e.text}` : e.text },
    ];
    const body = { type: "doc", version: 1, content: [{ type: "paragraph", content: inline }] };
    yield call("jira_add_comment", { issueIdOrKey: key, body });
    yield call("jira_get_comments", { issueIdOrKey: key });
    return `Commented on ${key}.`;
  },
  aliasSolutions,
  step: { consumes: ["issue"] },
});

/** A project and an active person with no issue in it but some elsewhere (for a refusal). */
function absentAssignment(site: Site, random: Random): [string, string, JiraUser] {
  const issues = [...site.values("issues")];
  const options = [...site.values("projects")].flatMap((p) =>
    people(site)
      .filter(
        (u) =>
          issues.some((i) => i.assigneeId === u.accountId) &&
          !issues.some((i) => i.projectId === p.id && i.assigneeId === u.accountId),
      )
      .map((u) => [p.name, p.key, u] as [string, string, JiraUser]),
  );
  return random.pick(options);
}
