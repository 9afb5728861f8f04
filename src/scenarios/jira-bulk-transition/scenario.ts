/**
 * jira-bulk-transition-v1: move every issue matching a described filter to a status, and no other issue.
 * Level 1: the issues of a project carrying a label (the generator labels 3–4 of them, and one issue of
 * another project as a distractor). Level 2: one person's issues in a given status in a project; the
 * person has a namesake who holds issues in that status there too (person → accountId → JQL). Level 3:
 * a labelled batch of 53–55 new issues, more than one search page at the default page size; 50 are
 * already in the target status and the 3–5 that are not come last (newest first), so an agent that does
 * not follow nextPageToken (or filter by status) misses them. One task in three names a status the
 * workflow does not have: it must be refused, and
 * moving any issue is a collateral change. Issues may need two transitions (To Do → In Review).
 *
 * Expectation: each matching issue not already there ends in the target status, with resolution Done when
 * the target is Done and none otherwise; a search whose result holds them validates. Points 0.7 / 0.15 /
 * 0.15 (refusals 0.85 / 0.15 / 0). Budget: the reference's calls + 5.
 */
import type { Expectation } from "../../reward/expectation.ts";
import {
  DEFAULT_RESOLUTION_ID,
  DONE,
  STATUSES,
  statusById,
  TO_DO,
  TRANSITIONS,
} from "../../sandbox/jira/catalog.ts";
import type { Issue, Project } from "../../sandbox/jira/model.ts";
import { insertIssue, projectIssueTypes } from "../../sandbox/jira/store.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { refusalExpectation, workExpectation } from "../expectation-parts.ts";
import { accountIdOf, searchAll } from "../jira-lookups.ts";
import { jqlString, NAMESAKE_PAIRS, people, topLevelIssues, variantFor } from "../jira-picks.ts";
import { fill } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { batchLabels, batchSummaries } from "./pools.ts";

type Variant = "label" | "assignee" | "paginate" | "refuse";

/** Statuses the workflow does not have (refusals). */
const MISSING_STATUSES = ["Blocked", "On Hold", "Cancelled", "Won't Fix"];

/** Default page size of the search tool. */
const PAGE = 50;

export interface BulkExpected {
  variant: Variant;
  projectKey: string;
  label: string | null;
  /** Level 2: whose issues (display name) and in which status. */
  assigneeName: string | null;
  fromStatus: string | null;
  targetStatus: string;
  /** The issues the filter matches and the transition ids each needs (empty when already there). */
  moves: { id: string; key: string; path: string[] }[];
}

const LABEL_PROMPTS = [
  'Move every issue in the {project} project labelled "{label}" to {status}.',
  'All {project} issues with the label "{label}" should be in {status}. Please transition them.',
  'Please set the status of each issue labelled "{label}" in {project} to {status}.',
  'Bulk update: the "{label}" issues of the {project} project go to {status}.',
];

const ASSIGNEE_PROMPTS = [
  "Move all of {person}'s {from} issues in the {project} project to {status}.",
  "Every {project} issue assigned to {person} that is in {from} should move to {status}.",
  "{person} has some issues in {from} in {project}; please transition all of them to {status}.",
  "Please take each {from} issue of {person} in the {project} project to {status}.",
];

export default defineScenario<BulkExpected>({
  id: "jira-bulk-transition-v1",
  description:
    "Move every Jira issue matching a described filter (label, or assignee and status) to a status, paging through search results; refuse a status the workflow lacks.",
  tools: [
    "jira_search_issues",
    "jira_get_issue",
    "jira_find_users",
    "jira_get_transitions",
    "jira_transition_issue",
  ],
  levels: [1, 2, 3],
  generate({ site, random, level, split, index }) {
    const variant: Variant =
      level === 1
        ? "label"
        : level === 2
          ? "assignee"
          : variantFor(split, index, ["paginate", "paginate", "refuse"] as const);
    const project = random.pick([...site.values("projects")]);
    const label = variant === "assignee" ? null : random.pick(batchLabels(split));
    let person: string | null = null;
    let from: string | null = null;
    let target = random.pick(STATUSES).name;
    if (variant === "label" || variant === "refuse") labelSome(site, random, project, label!);
    if (variant === "label") target = movableTarget(site, random, project.id, label!, target);
    if (variant === "paginate") {
      target = random.pick(["In Progress", "Done"]);
      const targetId = STATUSES.find((s) => s.name === target)!.id;
      const movers = random.int(3, 5);
      addBatch(site, random, project, label!, { count: 50 + movers, movers, targetId }, split);
    }
    if (variant === "assignee") {
      const fromStatus = random.pick(STATUSES.filter((s) => s.id !== DONE));
      from = fromStatus.name;
      target = random.pick(STATUSES.filter((s) => s.id !== fromStatus.id)).name;
      person = assignSome(site, random, project, fromStatus.id);
    }
    if (variant === "refuse") target = random.pick(MISSING_STATUSES);
    const values = {
      project: project.name,
      label: label ?? "",
      status: target,
      person: person ?? "",
      from: from ?? "",
    };
    const prompt = fill(random.pick(variant === "assignee" ? ASSIGNEE_PROMPTS : LABEL_PROMPTS), values);
    const targetId = STATUSES.find((s) => s.name === target)?.id;
    const matching = [...site.values("issues")].filter(
      (i) =>
        i.projectId === project.id &&
        (label
          ? i.labels.includes(label)
          : i.statusId === STATUSES.find((s) => s.name === from)!.id && userIs(site, i, person!)),
    );
    return {
      prompt,
      expected: {
        variant,
        projectKey: project.key,
        label,
        assigneeName: person,
        fromStatus: from,
        targetStatus: target,
        moves: matching.map((i) => ({
          id: i.id,
          key: i.key,
          path: targetId ? pathTo(i.statusId, targetId) : [],
        })),
      },
    };
  },
  expect({ expected: e }, site): Expectation {
    const moving = e.moves.filter((m) => m.path.length > 0);
    const pages = Math.ceil(Math.max(1, e.moves.length) / PAGE);
    const sources = new Set(moving.map((m) => m.path.join())).size;
    const steps = moving.reduce((n, m) => n + m.path.length, 0);
    const budget = (e.assigneeName ? 1 : 0) + 2 * pages + sources + steps + 5;
    const validate = e.moves.map((m) => ({ table: "issues" as const, id: m.id }));
    if (e.variant === "refuse")
      return refusalExpectation(`The workflow has no '${e.targetStatus}' status.`, validate, budget, [
        e.targetStatus,
      ]);
    const statusId = STATUSES.find((s) => s.name === e.targetStatus)!.id;
    return workExpectation(
      moving.map((m) => ({
        kind: "update" as const,
        ref: m.key,
        label: `${m.key} is in ${e.targetStatus}`,
        table: "issues" as const,
        id: m.id,
        fields: {
          statusId: { equals: statusId },
          // Entering Done sets the default resolution, leaving it clears it; otherwise it stays as it was.
          ...(resolutionChanges(site, m.id, statusId)
            ? { resolutionId: { equals: statusId === DONE ? DEFAULT_RESOLUTION_ID : null } }
            : {}),
        },
      })),
      validate,
      budget,
    );
  },
  introduces: (e) => (e.label ? [e.label] : []),
  *reference({ expected: e }) {
    let jql = `project = ${e.projectKey} AND labels = ${jqlString(e.label ?? "")}`;
    if (e.assigneeName) {
      const accountId = yield* accountIdOf(e.assigneeName);
      jql = `project = ${e.projectKey} AND assignee = "${accountId}" AND status = ${jqlString(e.fromStatus!)}`;
    }
    const found = yield* searchAll(jql, ["status"]);
    if (e.variant === "refuse")
      return `The workflow has no '${e.targetStatus}' status (only ${STATUSES.map((s) => s.name).join(", ")}), so I moved none of the ${found.length} issues.`;
    const known = new Set<string>();
    let moved = 0;
    for (const issue of found) {
      const path = e.moves.find((m) => m.key === issue.key)!.path;
      if (path.length === 0) continue;
      if (!known.has(path.join())) {
        known.add(path.join());
        yield call("jira_get_transitions", { issueIdOrKey: issue.key });
      }
      for (const id of path)
        yield call("jira_transition_issue", { issueIdOrKey: issue.key, transition: { id } });
      moved++;
    }
    // The moved issues may no longer match a status filter: verify them by key.
    yield* searchAll(e.label ? jql : `key in (${e.moves.map((m) => m.key).join(", ")})`, ["status"]);
    return `Moved ${moved} issue(s) to ${e.targetStatus}.`;
  },
  aliasSolutions,
});

const resolutionChanges = (site: Site, issueId: string, statusId: string) =>
  site.get("issues", issueId)!.resolutionId !== (statusId === DONE ? DEFAULT_RESOLUTION_ID : null);

const userIs = (site: Site, issue: Issue, name: string) =>
  issue.assigneeId !== null && site.get("users", issue.assigneeId)?.displayName === name;

/** The shortest transition path between two statuses. */
function pathTo(from: string, to: string): string[] {
  const queue: [string, string[]][] = [[from, []]];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const [status, path] = queue.shift()!;
    if (status === to) return path;
    for (const t of TRANSITIONS.filter((x) => x.from.includes(status) && !seen.has(x.to))) {
      seen.add(t.to);
      queue.push([t.to, [...path, t.id]]);
    }
  }
  throw new Error(`No path from ${statusById(from)?.name} to ${statusById(to)?.name}`);
}

/** Labels 3–4 top-level issues of the project, and one issue of another project (a distractor). */
function labelSome(site: Site, random: Random, project: Project, label: string): void {
  const own = random
    .shuffle(topLevelIssues(site).filter((i) => i.projectId === project.id))
    .slice(0, random.int(3, 4));
  const other = random.pick(topLevelIssues(site).filter((i) => i.projectId !== project.id));
  for (const issue of [...own, other])
    site.put("issues", issue.id, { ...issue, labels: [...issue.labels, label] });
}

/**
 * Adds a labelled batch of `count` tasks to the project: the first `movers` in To Do, the rest already in
 * the target status. Searches list newest first, so the movers come last: past the first page of 50.
 * Two labelled tasks in other projects are distractors.
 */
function addBatch(
  site: Site,
  random: Random,
  project: Project,
  label: string,
  batch: { count: number; movers: number; targetId: string },
  split: "eval" | "train",
): void {
  const template = random.pick(batchSummaries(split));
  const { id: _id, key: _key, projectId: _projectId, ...sample } = topLevelIssues(site)[0]!;
  const add = (target: Project, n: number, statusId: string) => {
    const type = projectIssueTypes(site, target.id).find((t) => t.name === "Task")!;
    const done = statusId === DONE;
    insertIssue(site, target, {
      ...sample,
      issueTypeId: type.id,
      summary: fill(template, { n: String(n) }),
      statusId,
      resolutionId: done ? DEFAULT_RESOLUTION_ID : null,
      resolutionDate: done ? sample.created : null,
      labels: [label],
      assigneeId: null,
      parentId: null,
    });
  };
  for (let n = 1; n <= batch.count; n++) add(project, n, n <= batch.movers ? TO_DO : batch.targetId);
  const others = [...site.values("projects")].filter((p) => p.id !== project.id);
  for (let n = batch.count + 1; n <= batch.count + 2; n++) add(random.pick(others), n, TO_DO);
}

/**
 * Gives a namesake 2–3 of the project's top-level issues in `statusId`, and the other namesake of the pair
 * 1–2 issues there in the same status (distractors). Returns the person's display name.
 */
function assignSome(site: Site, random: Random, project: Project, statusId: string): string {
  const pair = random.shuffle(random.pick(NAMESAKE_PAIRS));
  const [person, namesake] = pair.map((name) => people(site).find((u) => u.displayName === name)!);
  const issues = random.shuffle(topLevelIssues(site).filter((i) => i.projectId === project.id));
  const mine = random.int(2, 3);
  issues.slice(0, mine + random.int(1, 2)).forEach((issue, n) => {
    const assigneeId = n < mine ? person!.accountId : namesake!.accountId;
    const resolution = { resolutionId: null, resolutionDate: null };
    site.put("issues", issue.id, { ...issue, ...resolution, statusId, assigneeId });
  });
  return person!.displayName;
}

/**
 * The drawn target, unless every labelled issue is already in it (nothing to move): then another status
 * that at least one of them is not in. Only that case draws again, so every other task stays as it was.
 */
function movableTarget(site: Site, random: Random, projectId: string, label: string, drawn: string): string {
  const labelled = [...site.values("issues")].filter(
    (i) => i.projectId === projectId && i.labels.includes(label),
  );
  const movable = (name: string) =>
    labelled.some((i) => i.statusId !== STATUSES.find((s) => s.name === name)!.id);
  return movable(drawn) ? drawn : random.pick(STATUSES.filter((s) => movable(s.name))).name;
}
