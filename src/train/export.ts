/**
 * Dataset export for RL engines. One row per task, scenarios interleaved (task 0 of each scenario, then
 * task 1, ...), so any batch mixes them. Both formats carry the chat prompt exactly as the env server
 * opens the session (system + user message) and the columns that reopen it (scenario, split, index,
 * task_id, seed): TRL passes every column to the environment's `reset(**row)`.
 *   - trl:  JSONL, `{prompt: [{role, content}], scenario, split, index, task_id, seed}` per line.
 *   - verl: parquet with verl's RL dataset fields: data_source, agent_name (the atlas-gym agent loop,
 *           python/atlas_gym/verl_agent_loop.py), prompt, ability, reward_model {style, ground_truth},
 *           extra_info {index (unique across the export), scenario, split, task_index, task_id, seed, ...},
 *           plus the agent-loop config verl loads on every Ray worker (writeVerlAgentLoopConfig).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { stringify as toYaml } from "yaml";
import { openingMessages } from "../agent/system-prompt.ts";
import { createEpisode } from "../env/episode.ts";
import type { RewardMode } from "../reward/score.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Split, Task } from "../scenarios/define-scenario.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { generateTask } from "../scenarios/tasks.ts";

export type ExportFormat = "trl" | "verl";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** One exported task: what both formats are made from. */
export interface ExportRow {
  prompt: ChatMessage[];
  scenario: string;
  split: Split;
  index: number;
  task_id: string;
  seed: number;
  level: number;
  max_tool_calls: number;
  /** The task's expected values (JSON), the verl row's ground truth. */
  expected: string;
  /**
   * Unique over every row exported with the same scenario list and split, whatever --start and --n:
   * task index × number of scenarios + the scenario's position (verl's `extra_info.index`).
   */
  global_index: number;
}

export interface ExportOptions {
  scenarios: readonly Scenario[];
  split: Split;
  /** Tasks per scenario (default: 12 for eval, 20 for train). */
  n?: number;
  start?: number;
}

export function exportRows({ scenarios, split, n, start = 0 }: ExportOptions): ExportRow[] {
  const globalIndex = (task: Task, position: number) => task.index * scenarios.length + position;
  const perScenario = scenarios.map((scenario, position) =>
    split === "eval"
      ? tasksFor(scenario, "eval", n, start).map((task) =>
          rowFor(scenario, task, globalIndex(task, position)),
        )
      : Array.from({ length: n ?? 20 }, (_, i) => {
          const { task, site } = generateTask(scenario, "train", start + i);
          return rowFor(scenario, task, globalIndex(task, position), site);
        }),
  );
  const rows: ExportRow[] = [];
  const longest = Math.max(0, ...perScenario.map((r) => r.length));
  for (let i = 0; i < longest; i++) for (const list of perScenario) if (list[i]) rows.push(list[i]!);
  return rows;
}

function rowFor(scenario: Scenario, task: Task, global_index: number, site?: Site): ExportRow {
  const episode = createEpisode(scenario, task, site ? { initialSite: site } : {});
  return {
    prompt: openingMessages(episode),
    scenario: scenario.id,
    split: task.split,
    index: task.index,
    task_id: task.id,
    seed: task.seed,
    level: task.level,
    max_tool_calls: episode.expectation.budget,
    expected: JSON.stringify(task.expected),
    global_index,
  };
}

/** TRL: one JSON object per line; the dataset columns reach the environment's reset(**row). */
export function writeTrlJsonl(rows: readonly ExportRow[], path: string): void {
  const lines = rows.map(({ prompt, scenario, split, index, task_id, seed }) =>
    JSON.stringify({ prompt, scenario, split, index, task_id, seed }),
  );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.length > 0 ? `${lines.join("\n")}\n` : "");
}

const text = (name: string) =>
  ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" }) as const;
const int64 = (name: string) => ({ name, type: "INT64", repetition_type: "REQUIRED" }) as const;

/** verl's RL dataset schema (as its data_preprocess examples write it), with our columns in extra_info. */
const VERL_SCHEMA = [
  { name: "schema", num_children: 6 },
  text("data_source"),
  text("agent_name"),
  { name: "prompt", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 2 },
  text("role"),
  text("content"),
  text("ability"),
  { name: "reward_model", repetition_type: "REQUIRED", num_children: 2 },
  text("style"),
  text("ground_truth"),
  { name: "extra_info", repetition_type: "REQUIRED", num_children: 8 },
  int64("index"),
  text("scenario"),
  text("split"),
  int64("task_index"),
  text("task_id"),
  int64("seed"),
  int64("level"),
  int64("max_tool_calls"),
] as const;

/** The agent loop's name in the dataset's `agent_name` column and in the agent-loop config. */
export const VERL_AGENT_NAME = "atlas_env";

export function verlRecord(row: ExportRow) {
  return {
    data_source: `atlas-gym/${row.scenario}`,
    agent_name: VERL_AGENT_NAME,
    prompt: row.prompt,
    ability: "tool_use",
    reward_model: { style: "rule", ground_truth: row.expected },
    extra_info: {
      index: row.global_index,
      scenario: row.scenario,
      split: row.split,
      task_index: row.index,
      task_id: row.task_id,
      seed: row.seed,
      level: row.level,
      max_tool_calls: row.max_tool_calls,
    },
  };
}

/** verl: parquet (snappy) with nested list/struct columns, readable by pyarrow/pandas/datasets. */
export function writeVerlParquet(rows: readonly ExportRow[], path: string): void {
  const records = rows.map(verlRecord);
  const column = (name: keyof ReturnType<typeof verlRecord>) => ({
    name,
    data: records.map((r) =>
      name === "extra_info"
        ? {
            ...r.extra_info,
            index: BigInt(r.extra_info.index),
            task_index: BigInt(r.extra_info.task_index),
            seed: BigInt(r.extra_info.seed),
            level: BigInt(r.extra_info.level),
            max_tool_calls: BigInt(r.extra_info.max_tool_calls),
          }
        : r[name],
    ),
  });
  mkdirSync(dirname(path), { recursive: true });
  parquetWriteFile({
    filename: path,
    schema: VERL_SCHEMA.map((e) => ({ ...e })),
    columnData: (
      ["data_source", "agent_name", "prompt", "ability", "reward_model", "extra_info"] as const
    ).map(column),
  });
}

export function writeDataset(format: ExportFormat, rows: readonly ExportRow[], path: string): void {
  if (format === "trl") writeTrlJsonl(rows, path);
  else writeVerlParquet(rows, path);
}

export interface VerlAgentLoopOptions {
  /** The env server as every Ray node reaches it (not 127.0.0.1 on several nodes). */
  envUrl: string;
  /** Reward the loop asks /score for (default: the server's, paper). */
  rewardMode?: RewardMode;
}

/**
 * The file verl's `actor_rollout_ref.rollout.agent.agent_loop_config_path` names: each Ray worker loads
 * it into its agent-loop registry and builds the loop with these keyword arguments. The bearer token is
 * not written here; the loop reads ATLAS_GYM_TOKEN from its environment (the Ray runtime_env).
 */
export function writeVerlAgentLoopConfig(path: string, { envUrl, rewardMode }: VerlAgentLoopOptions): void {
  const entry = {
    name: VERL_AGENT_NAME,
    _target_: "atlas_gym.verl_agent_loop.AtlasEnvAgentLoop",
    env_url: envUrl,
    ...(rewardMode ? { reward_mode: rewardMode } : {}),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `# verl agent loop for atlas-gym (atlas-gym export --format verl)\n${toYaml([entry])}`);
}
