/**
 * Recording and replaying tool-call scripts. The reference solution is run once on a scratch episode
 * to get its concrete calls; failure policies and audit perturbations transform that list and replay it
 * on the real episode. Writes replayed in the same order get the same ids (counters), so later calls
 * that use created ids stay valid.
 */

import { createEpisode, type Episode } from "../../env/episode.ts";
import type { Scenario, Task } from "../../scenarios/define-scenario.ts";
import type { ToolCallRequest, ToolCallResult } from "../../tools/tool-call-result.ts";

export interface Script {
  calls: ToolCallRequest[];
  final: string;
}

/** Runs the scenario's reference solution interactively on an episode. */
export function runReference(episode: Episode): string {
  const solution = episode.scenario.reference(episode.task);
  let next = solution.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    const result = episode.step(next.value);
    if (result.errorType === "budget") return "";
    next = solution.next(result);
  }
  episode.finish(next.value);
  return next.value;
}

/** The reference solution's calls, recorded on a scratch episode. */
export function recordReference(scenario: Scenario, task: Task): Script {
  const scratch = createEpisode(scenario, task);
  const final = runReference(scratch);
  return { calls: scratch.calls.map((c) => ({ name: c.name, arguments: c.arguments })), final };
}

/** Replays a script; stops when the budget is spent (truncated). */
export function replay(episode: Episode, script: Script): string {
  for (const call of script.calls) {
    if (episode.step(structuredClone(call)).errorType === "budget") return "";
  }
  episode.finish(script.final);
  return script.final;
}
