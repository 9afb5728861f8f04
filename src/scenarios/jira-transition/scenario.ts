/**
 * jira-transition-v1: move an issue to a named status. Some tasks go to Done with a resolution, some
 * name the issue by its summary instead of its key. Level 2 always names it by a summary that has a
 * look-alike in the same project, and picks a status two transitions away.
 *
 * Reward constants: R1 0.7 on doTransition calls targeting the issue — one step: issue 0.28,
 * transition id 0.42; to Done with a resolution: issue 0.2, transition id 0.3, resolution 0.2; two steps:
 * 0.35 per step (issue 0.14, transition id 0.21). R2 validate 0.15 (getIssue or getTransitions on the
 * issue before the first transition), verify 0.15 (getIssue after the last). Budget 6 + 2 per step.
 * Default penalties. State: the issue is in the target status with the expected resolution (the one
 * asked for, Done by default when entering Done, none otherwise); nothing else changes.
 */

import { equals, oneOf } from "../../reward/matchers.ts";
import { arg, type CallInput, type MutationSpec } from "../../reward/spec.ts";
import { expectUpdated } from "../../reward/state.ts";
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
  generate({ site, random, level }) {
    const issue = pickIssue(site, random, level);
    const path = pickPath(random, issue.statusId, level);
    const target = statusById(TRANSITIONS.find((t) => t.id === path.at(-1))!.to)!.name;
    const resolution = target === "Done" && random.next() < 0.6 ? random.pick(RESOLUTIONS).name : null;
    const project = site.get("projects", issue.projectId)!;
    const byKey = level === 1 && random.next() < 0.65;
    const ref = byKey ? issue.key : `the issue "${issue.summary}" in the ${project.name} project`;
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
  reward({ expected: e }) {
    const isIssue = (input: CallInput) => oneOf([e.issueKey, e.issueId]).test(input.params.issueIdOrKey);
    const perStep = 0.7 / e.path.length;
    const mutations: MutationSpec[] = e.path.map((transitionId, step) => {
      const lastWithResolution = e.resolution !== null && step === e.path.length - 1;
      const args = [
        arg(
          "issue",
          "params.issueIdOrKey",
          oneOf([e.issueKey, e.issueId], `is ${e.issueKey}`),
          lastWithResolution ? 0.2 : perStep * 0.4,
        ),
        arg(
          "transition id",
          "body.transition.id",
          equals(transitionId),
          lastWithResolution ? 0.3 : perStep * 0.6,
        ),
      ];
      if (lastWithResolution) {
        const r = RESOLUTIONS.find((x) => x.name === e.resolution)!;
        args.push(
          arg(
            "resolution",
            ["body.fields.resolution.name", "body.fields.resolution.id"],
            oneOf([r.name, r.id]),
            0.2,
          ),
        );
      }
      const label = `transition ${e.issueKey} via ${transitionId}`;
      return {
        label,
        operationId: "doTransition",
        target: (i) =>
          isIssue(i) &&
          String((i.body as { transition?: { id?: unknown } })?.transition?.id) === transitionId,
        args,
      };
    });
    const resolutionId =
      e.targetStatus === "Done"
        ? (RESOLUTIONS.find((r) => r.name === (e.resolution ?? "Done"))!.id as string)
        : null;
    return {
      mutations,
      validate: {
        points: 0.15,
        reads: [
          {
            label: "the issue or its transitions",
            operationIds: ["getIssue", "getTransitions"],
            target: isIssue,
          },
        ],
      },
      verify: { points: 0.15, reads: [{ label: "the issue", operationIds: ["getIssue"], target: isIssue }] },
      budget: 6 + 2 * e.path.length,
      state: [
        expectUpdated(
          `${e.issueKey} is in ${e.targetStatus}`,
          "issues",
          e.issueId,
          {
            statusId: equals(STATUSES.find((s) => s.name === e.targetStatus)!.id),
            resolutionId: equals(resolutionId),
          },
          ["updated", "statusCategoryChangeDate", "resolutionDate"],
        ),
      ],
    };
  },
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
});

/** Level 1: any issue; level 2: an issue whose summary has a look-alike in its project. */
function pickIssue(site: Site, random: Random, level: number): Issue {
  const issues = [...site.values("issues")].filter((i) => i.parentId === null);
  if (level === 1) return random.pick(issues);
  const prefix = (s: string) => s.split(" ").slice(0, 3).join(" ");
  const lookalikes = issues.filter((i) =>
    issues.some((o) => o !== i && o.projectId === i.projectId && prefix(o.summary) === prefix(i.summary)),
  );
  return random.pick(lookalikes);
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
