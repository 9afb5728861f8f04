/**
 * Play: a person attempts a task through the same Episode and rollout loop as `eval`. The person is
 * the policy — each `next` waits for the form's next action (a tool call or the final answer) — so the
 * trace is an EpisodeTrace like any other and can be saved as a one-episode run that `view` and
 * `compare` read. Sessions are held in memory by counter id (`play-1`, `play-2`, ...).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runEpisode } from "../agent/rollout.ts";
import type { ChatMessage, EpisodeTrace, Policy, PolicyTurn } from "../agent/types.ts";
import { createEpisode, type Episode } from "../env/episode.ts";
import { openEpisodeLog } from "../eval/episode-log.ts";
import { provenanceOf } from "../eval/provenance.ts";
import { EvalConfig, writeRunConfig } from "../eval/run-dir.ts";
import { writeReports } from "../eval/write-reports.ts";
import type { RewardMode } from "../reward/score.ts";
import type { Split } from "../scenarios/define-scenario.ts";
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";
import { taskOf } from "./replay-record.ts";

/** The model name a played episode is recorded under. */
export const HUMAN_MODEL = "human:play";

export type PlayAction = { tool: string; arguments: string } | { final: string };

export interface PlaySession {
  readonly id: string;
  readonly episode: Episode;
  readonly toolSet: ToolSetName;
  readonly reward: RewardMode;
  /** The finished trace, once the final answer (or the budget) ended the episode. */
  readonly trace: EpisodeTrace | undefined;
  /** The run directory it was saved to, once saved. */
  readonly savedTo: string | undefined;
  /** Takes the person's next action; resolves when the episode waits for the next one or has ended. */
  act(action: PlayAction): Promise<void>;
  /** Writes the finished episode as a run under `root` (run.json, episodes.jsonl, results.json, reports). */
  save(root: string): Promise<string>;
}

export interface PlayRequest {
  scenario: string;
  split: Split;
  index: number;
  toolSet: ToolSetName;
  reward?: RewardMode;
}

/** Most tool calls plus the final answer a played episode may take (the budget usually ends it first). */
const MAX_TURNS = 200;

export function createPlaySessions(clock: () => Date = () => new Date()) {
  const sessions = new Map<string, PlaySession>();
  let counter = 0;
  let saves = 0;

  function open(request: PlayRequest): PlaySession {
    const { scenario, task } = taskOf(request);
    const episode = createEpisode(scenario, task, { toolSet: request.toolSet });
    const id = `play-${++counter}`;
    const reward = request.reward ?? "paper";
    let waiting: ((turn: PolicyTurn) => void) | undefined;
    let ready: () => void = () => {};
    let readyPromise = new Promise<void>((r) => (ready = r));
    let callNumber = 0;
    const human: Policy = {
      name: HUMAN_MODEL,
      next: () =>
        new Promise<PolicyTurn>((resolve) => {
          waiting = resolve;
          ready();
        }),
    };
    let trace: EpisodeTrace | undefined;
    let savedTo: string | undefined;
    const done = runEpisode(episode, human, { maxTurns: MAX_TURNS, model: HUMAN_MODEL, reward }).then((t) => {
      trace = t;
      ready();
    });
    const session: PlaySession = {
      id,
      episode,
      toolSet: request.toolSet,
      reward,
      get trace() {
        return trace;
      },
      get savedTo() {
        return savedTo;
      },
      async act(action) {
        await readyPromise;
        if (trace || !waiting) throw new Error("This episode has ended; save it or start another.");
        const message: ChatMessage =
          "final" in action
            ? { role: "assistant", content: action.final }
            : {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: `call_${++callNumber}`,
                    type: "function",
                    function: { name: action.tool, arguments: action.arguments },
                  },
                ],
              };
        const resolve = waiting;
        waiting = undefined;
        readyPromise = new Promise<void>((r) => (ready = r));
        resolve({ message, latencyMs: 0 });
        await Promise.race([readyPromise, done]);
      },
      async save(root) {
        if (!trace) throw new Error("Give the final answer first: only a finished episode is saved.");
        if (savedTo) return savedTo;
        let dir = "";
        do dir = join(root, `play-${request.scenario}-${request.split}-${request.index}-${++saves}`);
        while (existsSync(dir));
        mkdirSync(dir, { recursive: true });
        const config = EvalConfig.parse({
          model: HUMAN_MODEL,
          scenarios: [request.scenario],
          split: request.split,
          k: 1,
          concurrency: 1,
          seed: 0,
          reward,
          maxTurns: MAX_TURNS,
          tools: request.toolSet,
        });
        const provenance = { ...provenanceOf(config, clock()), ended_at: clock().toISOString() };
        writeRunConfig(dir, config, provenance);
        const log = openEpisodeLog(join(dir, "episodes.jsonl"));
        log.append(trace);
        log.close();
        await writeReports(dir, config, { scenarios: [request.scenario], provenance });
        savedTo = dir;
        return dir;
      },
    };
    sessions.set(id, session);
    return session;
  }

  return { open, get: (id: string) => sessions.get(id) };
}

export type PlaySessions = ReturnType<typeof createPlaySessions>;
