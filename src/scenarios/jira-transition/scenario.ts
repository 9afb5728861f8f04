/**
 * jira-transition-v1: move an issue to a named status. Some tasks go to Done with a resolution, some
 * name the issue by its summary instead of its key. Level 2 always names it by a summary that has a
 * look-alike in the same project, and picks a status two transitions away.
 *
 * Expectation: the issue ends in the target status (fields 0.7; with a requested resolution: status
 * 0.5, resolution 0.2), judged by outcome: any legal route of transitions earns it. The resolution the
 * API sets alongside (Done by default when entering Done, none when leaving it) is learned from the
 * reference. Validate 0.15 (a read of the issue before the first transition), verify 0.15. Budget 6 + 2
 * per step of the shortest route. Nothing else changes.
 */

import type { Expectation } from "../../reward/expectation.ts";
import {
  RESOLUTIONS,
  STATUSES,
  statusById,
  TRANSITIONS,
  transitionsFrom,
} from "../../sandbox/jira/catalog.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";

export interface TransitionExpected {
  issueKey: string;
  issueId: string;
  projectKey: string;
  summary: string;
  byKey: boolean;
  targetStatus: string;
  /** Transition ids to apply, in order (one, or two at level 2). */
  path: string[];
  /** Resolution name the prompt asks for (Done tasks only); null when not asked. */
  resolution: string | null;
}

const PROMPTS = [
  "Move {ref} to {status}.",
  "Please transition {ref} to the '{status}' status.",
  "{ref} should now be in {status}. Can you update it?",
  "Update the status of {ref} to {status}.",
  "Set {ref} to {status} in Jira.",
  "Could you change the status of {ref} to {status}?",
  "Our board is out of date: {ref} belongs in {status}. Please fix that.",
];

const RESOLUTION_PROMPTS = [
  " Resolve it as '{resolution}'.",
  " Use the resolution '{resolution}'.",
  " Its resolution should be {resolution}.",
];

export default defineScenario<TransitionExpected>({
  id: "jira-transition-v1",
  description: "Move a Jira issue to a named status, with a resolution when it goes to Done.",
  tools: ["jira_get_issue", "jira_search_issues", "jira_get_transitions", "jira_transition_issue"],
  generate({ site, random, level, bound }) {
    const issue = bound ? site.get("issues", bound.id)! : pickIssue(site, random, level);
    const path = pickPath(random, issue.statusId, level);
    const target = statusById(TRANSITIONS.find((t) => t.id === path.at(-1))!.to)!.name;
    const resolution = target === "Done" && random.next() < 0.6 ? random.pick(RESOLUTIONS).name : null;
    const project = site.get("projects", issue.projectId)!;
    const byKey = bound !== undefined || (level === 1 && random.next() < 0.65);
    const ref =
      bound?.describe ?? (byKey ? issue.key : `the issue "${issue.summary}" in the ${project.name} project`);
    let prompt = paraphrase(random, PROMPTS, { ref, status: target });
    if (resolution) prompt += paraphrase(random, RESOLUTION_PROMPTS, { resolution });
    return {
      prompt,
      expected: {
        issueKey: issue.key,
        issueId: issue.id,
        projectKey: project.key,
        summary: issue.summary,
        byKey,
        targetStatus: target,
        path,
        resolution,
      },
    };
  },
  expect({ expected: e }): Expectation {
    const statusId = STATUSES.find((s) => s.name === e.targetStatus)!.id;
    const resolution = e.resolution ? RESOLUTIONS.find((r) => r.name === e.resolution)! : null;
    return {
      entities: [
        {
          kind: "update",
          ref: "issue",
          label: `${e.issueKey} is in ${e.targetStatus}${resolution ? ` resolved as ${resolution.name}` : ""}`,
          table: "issues",
          id: e.issueId,
          fields: {
            statusId: { equals: statusId },
            ...(resolution ? { resolutionId: { equals: resolution.id } } : {}),
          },
        },
      ],
      validate: [{ table: "issues", id: e.issueId }],
      budget: 6 + 2 * e.path.length,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
      ...(resolution ? { weights: { "issue.statusId": 0.5, "issue.resolutionId": 0.2 } } : {}),
    };
  },
  /** None: the task moves an existing issue and makes no names up. */
  introduces: () => [],
  *reference({ expected: e }) {
    let key = e.issueKey;
    if (!e.byKey) {
      const jql = `project = ${e.projectKey} AND summary ~ "${e.summary.replace(/"/g, '\\"')}"`;
      const found = yield call("jira_search_issues", { jql, fields: ["summary"] });
      const issues = (found.body as { issues: { key: string; fields: { summary: string } }[] }).issues;
      key = issues.find((i) => i.fields.summary === e.summary)!.key;
    }
    for (const transitionId of e.path) {
      yield call("jira_get_transitions", { issueIdOrKey: key });
      const isLast = transitionId === e.path.at(-1);
      const fields = isLast && e.resolution ? { resolution: { name: e.resolution } } : undefined;
      yield call("jira_transition_issue", {
        issueIdOrKey: key,
        transition: { id: transitionId },
        ...(fields ? { fields } : {}),
      });
    }
    yield call("jira_get_issue", { issueIdOrKey: key, fields: ["status", "resolution"] });
    return `${key} is now ${e.targetStatus}.`;
  },
  aliasSolutions,
  step: { consumes: ["issue"] },
});

/** Level 1: any issue; level 2: an issue whose summary has a look-alike in its project. */
function pickIssue(site: Site, random: Random, level: number): Issue {
  const issues = [...site.values("issues")].filter((i) => i.parentId === null);
  if (level === 1) return random.pick(issues);
  // An issue has a look-alike when another in its project starts with the same three words.
  const group = (i: Issue) => `${i.projectId} ${i.summary.split(" ").slice(0, 3).join(" ")}`;
  const sizes = new Map<string, number>();
  for (const i of issues) sizes.set(group(i), (sizes.get(group(i)) ?? 0) + 1);
  return random.pick(issues.filter((i) => sizes.get(group(i))! > 1));
}

/** Transition ids from the current status to a target: one step at level 1, two at level 2 when possible. */
function pickPath(random: Random, from: string, level: number): string[] {
  const first = random.pick(transitionsFrom(from));
  if (level === 1) return [first.id];
  const seconds = transitionsFrom(first.to).filter(
    (t) => t.to !== from && !transitionsFrom(from).some((d) => d.to === t.to),
  );
  return seconds.length > 0 ? [first.id, random.pick(seconds).id] : [first.id];
}
