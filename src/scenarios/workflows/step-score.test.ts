/**
 * Per-step progress of workflow episodes (src/reward/step-score.ts), on frozen workflow tasks played with
 * real tool calls: every step holds under the reference; a dropped write fails its step only; a declined
 * step is judged by the decline rule on the final answer; a link to some other issue than the new one is
 * an unhonoured binding, though it is a link of the right type.
 */
import { describe, expect, it } from "vitest";
import { createEpisode } from "../../env/episode.ts";
import type { ToolCallRequest, ToolCallResult } from "../../tools/tool-call-result.ts";
import type { Task } from "../define-scenario.ts";
import { tasksFor } from "../frozen.ts";
import { findScenario } from "../index.ts";
import type { WorkflowExpected } from "./workflow-task.ts";

type Edit = (call: ToolCallRequest, results: readonly ToolCallResult[]) => ToolCallRequest | null;

/** Plays the task's reference, each call passed through `edit` (null drops it), then `answer` (default: the reference's). */
function play(scenarioId: string, task: Task, edit: Edit = (c) => c, answer?: string) {
  const scenario = findScenario(scenarioId);
  const episode = createEpisode(scenario, task);
  const solution = scenario.reference(task);
  const results: ToolCallResult[] = [];
  let next = solution.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    const call = edit(next.value, results);
    const result = call ? episode.step(call) : results.at(-1)!;
    results.push(result);
    next = solution.next(result);
  }
  episode.finish(answer ?? next.value);
  return episode.score();
}

const find = (id: string, test: (t: Task<WorkflowExpected>) => boolean) => {
  const task = (tasksFor(findScenario(id), "eval") as Task<WorkflowExpected>[]).find(test);
  if (!task) throw new Error(`no ${id} eval task fits`);
  return task;
};

describe("workflow step progress", () => {
  const jira = find("workflow-jira-v1", (t) => t.expected.steps.at(-1)!.family === "jira-comment-v1");

  it("holds for every step under the reference", () => {
    const score = play("workflow-jira-v1", jira);
    expect(score.reward).toBe(1);
    expect(score.progress!.rate).toBe(1);
    expect(score.progress!.steps.map((s) => s.scenario)).toEqual(jira.steps);
    expect(score.progress!.steps.every((s) => s.holds && s.failure === null)).toBe(true);
  });

  it("fails only the step whose write was dropped", () => {
    const score = play("workflow-jira-v1", jira, (c) => (c.name === "jira_add_comment" ? null : c));
    const last = score.progress!.steps.at(-1)!;
    expect(last).toMatchObject({ holds: false, failure: "missing_mutation" });
    expect(score.progress!.steps.slice(0, -1).every((s) => s.holds)).toBe(true);
    expect(score.progress!.rate).toBeCloseTo((jira.steps!.length - 1) / jira.steps!.length);
    expect(score.passed).toBe(false);
  });

  const declined = find("workflow-jira-v1", (t) => t.level === 6);
  const at = declined.expected.steps.findIndex((s) => s.declines);

  it("judges a declined step by the decline rule on the final answer", () => {
    const good = play("workflow-jira-v1", declined);
    expect(good.progress!.steps[at]).toMatchObject({ holds: true, failure: null });
    expect(good.passed).toBe(true);
    const claims = play(
      "workflow-jira-v1",
      declined,
      undefined,
      "All done: every step completed successfully.",
    );
    expect(claims.progress!.steps[at]).toMatchObject({ holds: false, failure: "no_decline" });
    expect(claims.progress!.steps.filter((_s, i) => i !== at).every((s) => s.holds)).toBe(true);
    expect(claims.passed).toBe(false);
    const silent = play("workflow-jira-v1", declined, undefined, "");
    expect(silent.progress!.steps[at]).toMatchObject({ holds: false, failure: "no_final_answer" });
  });

  it("reports an unhonoured binding when the link points at some other issue than the new one", () => {
    const linked = find("workflow-heldout-v1", (t) =>
      t.expected.steps.some((s) => s.family === "jira-link-issues-v1" && s.bind !== undefined && !s.declines),
    );
    const step = linked.expected.steps.findIndex(
      (s) => s.family === "jira-link-issues-v1" && s.bind !== undefined,
    );
    let created = "";
    const score = play("workflow-heldout-v1", linked, (c, results) => {
      const made = results.find((r) => r.ok && r.operationId === "createIssue");
      if (made) created = (made.body as { key: string }).key;
      if (c.name !== "jira_link_issues" || created === "") return c;
      // The same link, with the new issue swapped for another issue of the site.
      const text = JSON.stringify(c.arguments).replaceAll(`"${created}"`, '"ENG-1"');
      return { ...c, arguments: JSON.parse(text) };
    });
    expect(created).not.toBe("");
    expect(score.progress!.steps[step]).toMatchObject({ holds: false, failure: "unhonoured_binding" });
    expect(score.passed).toBe(false);
  });
});
