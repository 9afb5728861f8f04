/**
 * jira-link-issues-v1: link two issues with a named link type in the direction the prompt states ("A
 * blocks B" vs "A is blocked by B"; likewise duplicates and clones). In linkIssues the inwardIssue takes
 * the type's outward phrasing: "A blocks B" is inwardIssue A, outwardIssue B.
 * Level 1 names both issues by key in either phrasing. Level 2 names one by a summary with a look-alike in
 * its project and always uses the inward phrasing ("is blocked by"), the one agents get backwards. Level 3
 * finds one issue through its assignee (person → accountId → issue); one task in three asks for a link
 * type the site does not have: it must be refused, and creating any link is a collateral change.
 *
 * Expectation: one issue link with the type and the two issues on their sides; reads of either issue
 * validate. The task makes no names up (it names existing issues and link types), so `introduces` is empty. Points 0.7 / 0.15 / 0.15 (refusals 0.85 / 0.15 / 0). Budget: the reference's calls + 3.
 */
import type { Expectation } from "../../reward/expectation.ts";
import { ISSUE_LINK_TYPES } from "../../sandbox/jira/catalog.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import type { Site } from "../../sandbox/site.ts";
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
  topLevelIssues,
} from "../jira-picks.ts";
import { capitalise, paraphrase } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";

/** Directed link types (Relates reads the same both ways, so it cannot test direction). */
const TYPES = ISSUE_LINK_TYPES.filter((t) => t.name !== "Relates");

/** Link types the site does not have, phrased as a prompt would (refusals). */
const MISSING_TYPES = [
  { name: "Tests", verb: "tests" },
  { name: "Causes", verb: "causes" },
  { name: "Implements", verb: "implements" },
];

export interface LinkExpected {
  refuse: boolean;
  /** The issue named first in the prompt and the one named second. */
  first: IssueClue & { id: string };
  second: IssueClue & { id: string };
  typeName: string;
  /** The verb the prompt uses, e.g. "is blocked by". */
  verb: string;
  /** Ids on the link's two sides (null for a refusal). */
  inwardIssueId: string | null;
  outwardIssueId: string | null;
  typeId: string | null;
  referenceCalls: number;
}

const PROMPTS = [
  "Link the issues: {a} {verb} {b}.",
  "Please record in Jira that {a} {verb} {b}.",
  "{a} {verb} {b}. Can you add that link?",
  "Add an issue link saying {a} {verb} {b}.",
  "Create a '{type}' link: {a} {verb} {b}.",
];

const REFUSE = [
  "Add an issue link of type '{type}' so that {a} {verb} {b}.",
  "Use the '{type}' link type to record that {a} {verb} {b}.",
];

export default defineScenario<LinkExpected>({
  id: "jira-link-issues-v1",
  description:
    "Link two Jira issues with a named link type in the stated direction (blocks / is blocked by, duplicates, clones); refuse a link type the site lacks.",
  tools: [
    "jira_get_issue",
    "jira_search_issues",
    "jira_find_users",
    "jira_get_issue_link_types",
    "jira_link_issues",
  ],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index, bound }) {
    const refuse = refusesAtLevel3(level, split, index);
    const firstKind: IssueRefKind = level === 1 ? "key" : level === 2 ? "summary" : "assignee";
    const first = bound ? site.get("issues", bound.id)! : random.pick(issuesForLevel(site, level));
    const second = random.pick(unlinked(site, first));
    const secondKind: IssueRefKind = level === 3 && random.next() < 0.5 ? "summary" : "key";
    const clue = (issue: Issue, kind: IssueRefKind) => ({ id: issue.id, ...issueClue(site, issue, kind) });
    const values = {
      a: bound?.describe ?? describeIssue(site, first, firstKind),
      b: describeIssue(site, second, secondKind),
    };
    const calls = lookupCalls(firstKind) + lookupCalls(secondKind);
    const base = { first: clue(first, firstKind), second: clue(second, secondKind) };
    if (refuse) {
      const missing = random.pick(MISSING_TYPES);
      return {
        prompt: capitalise(paraphrase(random, REFUSE, { ...values, type: missing.name, verb: missing.verb })),
        expected: {
          refuse,
          ...base,
          typeName: missing.name,
          verb: missing.verb,
          inwardIssueId: null,
          outwardIssueId: null,
          typeId: null,
          referenceCalls: calls + 1,
        },
      };
    }
    const type = random.pick(TYPES);
    const inwardPhrase = level === 2 || random.next() < 0.5;
    const verb = inwardPhrase ? type.inward : type.outward;
    return {
      prompt: capitalise(paraphrase(random, PROMPTS, { ...values, type: type.name, verb })),
      expected: {
        refuse,
        ...base,
        typeName: type.name,
        verb,
        // "A blocks B": A is the inwardIssue; "A is blocked by B": B is.
        inwardIssueId: inwardPhrase ? second.id : first.id,
        outwardIssueId: inwardPhrase ? first.id : second.id,
        typeId: type.id,
        referenceCalls: calls + 4,
      },
    };
  },
  expect({ expected: e }): Expectation {
    const budget = e.referenceCalls + 3;
    const validate = [
      { table: "issues" as const, id: e.first.id },
      { table: "issues" as const, id: e.second.id },
    ];
    if (e.refuse)
      return refusalExpectation(`The site has no '${e.typeName}' issue link type.`, validate, budget, [
        e.typeName,
      ]);
    return workExpectation(
      [
        {
          kind: "create",
          ref: `the ${e.typeName} link`,
          label: `${e.first.key} ${e.verb} ${e.second.key}`,
          table: "issueLinks",
          fields: {
            typeId: { equals: e.typeId },
            inwardIssueId: { equals: e.inwardIssueId },
            outwardIssueId: { equals: e.outwardIssueId },
          },
        },
      ],
      validate,
      budget,
    );
  },
  introduces: () => [],
  *reference({ expected: e }) {
    const a = yield* issueKeyOf(e.first);
    const b = yield* issueKeyOf(e.second);
    const types = yield call("jira_get_issue_link_types", {});
    const list = (types.body as { issueLinkTypes: { name: string; inward: string; outward: string }[] })
      .issueLinkTypes;
    const type = list.find((t) => t.name === e.typeName);
    if (e.refuse) {
      if (type) throw new Error(`${e.typeName} unexpectedly exists`);
      return `There is no '${e.typeName}' link type on this site (only ${list.map((t) => t.name).join(", ")}), so I did not link ${a} and ${b}.`;
    }
    yield call("jira_get_issue", { issueIdOrKey: a, fields: ["summary", "issuelinks"] });
    const inward = type!.outward === e.verb;
    yield call("jira_link_issues", {
      type: { name: type!.name },
      inwardIssue: { key: inward ? a : b },
      outwardIssue: { key: inward ? b : a },
    });
    yield call("jira_get_issue", { issueIdOrKey: a, fields: ["issuelinks"] });
    return `Linked: ${a} ${e.verb} ${b}.`;
  },
  aliasSolutions,
  step: { consumes: ["issue"] },
});

/** Top-level issues other than `issue` with no link to it yet. */
function unlinked(site: Site, issue: Issue): Issue[] {
  const linked = new Set(
    [...site.values("issueLinks")].flatMap((l) =>
      l.inwardIssueId === issue.id
        ? [l.outwardIssueId]
        : l.outwardIssueId === issue.id
          ? [l.inwardIssueId]
          : [],
    ),
  );
  return topLevelIssues(site).filter((i) => i.id !== issue.id && !linked.has(i.id));
}
