/**
 * Rebuilds an episode's end state from its record: the task's site is regenerated from the registry
 * (deterministic: frozen eval split or seeded train task), the record's tool calls are stepped again, in
 * order, on a fresh Episode with the run's tool set, and the replay is scored. That yields what a
 * record does not store — the site diff and each expected field beside the end state — and a check
 * that the replay scores what the run logged (it says so when it does not, e.g. after a scenario changed).
 */
import type { ChatToolCall } from "../agent/types.ts";
import { createEpisode } from "../env/episode.ts";
import type { EpisodeRecord } from "../eval/episode-record.ts";
import { judgeState, type StateVerdict } from "../reward/verdict.ts";
import { diff, type RecordChange } from "../sandbox/diff.ts";
import { DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import type { Scenario, Task } from "../scenarios/define-scenario.ts";
import { loadEvalSplit } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { referenceChanges } from "../scenarios/reference-outcome.ts";
import { generateTask, seedFor, siteForTask } from "../scenarios/tasks.ts";
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";

export type Replay =
  | {
      ok: true;
      changes: RecordChange[];
      verdict: StateVerdict;
      /** The replay's reward in the record's mode. */
      reward: number;
      /** Whether the replay scores what the record holds. */
      sameScore: boolean;
    }
  | { ok: false; reason: string };

/** The task a record was played on, from the registry. */
export function taskOf(record: Pick<EpisodeRecord, "scenario" | "split" | "index">): {
  scenario: Scenario;
  task: Task;
} {
  const scenario = findScenario(record.scenario);
  const task =
    record.split === "eval"
      ? loadEvalSplit(scenario).tasks[record.index]
      : generateTask(scenario, "train", record.index, seedFor("train", record.index)).task;
  if (!task) throw new Error(`${record.scenario} has no ${record.split} task ${record.index}`);
  return { scenario, task };
}

/** The assistant tool calls of a record by id, each id's calls in order. */
function assistantCalls(record: EpisodeRecord): (id: string) => ChatToolCall | undefined {
  const queues = new Map<string, ChatToolCall[]>();
  for (const m of record.messages)
    for (const call of m.tool_calls ?? []) queues.set(call.id, [...(queues.get(call.id) ?? []), call]);
  return (id) => queues.get(id)?.shift();
}

export function replayRecord(record: EpisodeRecord, toolSet: ToolSetName = "default"): Replay {
  try {
    const { scenario, task } = taskOf(record);
    if (task.id !== record.task_id)
      return { ok: false, reason: `the registry's task is ${task.id}, the record's ${record.task_id}` };
    const initial = siteForTask(scenario, task);
    const episode = createEpisode(scenario, task, { initialSite: initial, toolSet });
    const callFor = assistantCalls(record);
    for (const stored of record.calls) {
      const call = callFor(stored.tool_call_id);
      if (!call)
        return {
          ok: false,
          reason: `call ${stored.tool_call_id || "(no id)"} was not made by a tool call of the conversation (a REST request?), so it cannot be replayed`,
        };
      episode.step({ name: call.function.name, arguments: call.function.arguments });
    }
    episode.finish(record.final_message);
    const mode = (record.score.mode as "paper" | "state" | "gated" | undefined) ?? "paper";
    const reward = episode.score(mode).reward;
    const changes = diff(initial, episode.site);
    const verdict = judgeState(
      episode.expectation,
      changes,
      referenceChanges(scenario, task, initial, DEFAULT_BASE_URL),
    );
    return { ok: true, changes, verdict, reward, sameScore: Math.abs(reward - record.score.reward) < 1e-9 };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
