/**
 * Dataset export for RL engines. One row per task, scenarios interleaved (task 0 of each scenario, then
 * task 1, ...), so any batch mixes them. Both formats carry the chat prompt exactly as the env server
 * opens the session (system + user message) and the columns that reopen it (scenario, split, index,
 * task_id, seed): TRL passes every column to the environment's `reset(**row)`.
 *   - trl:  JSONL, `{prompt: [{role, content}], scenario, split, index, task_id, seed}` per line.
 *   - verl: parquet with verl's RL dataset fields: data_source, prompt, ability,
 *           reward_model {style, ground_truth}, extra_info {...}.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { systemPrompt } from "../agent/system-prompt.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Split, Task } from "../scenarios/define-scenario.ts";
import { createEpisode } from "../scenarios/episode.ts";
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
}

export interface ExportOptions {
  scenarios: readonly Scenario[];
  split: Split;
  /** Tasks per scenario (default: 12 for eval, 20 for train). */
  n?: number;
  start?: number;
}

export function exportRows({ scenarios, split, n, start = 0 }: ExportOptions): ExportRow[] {
  const perScenario = scenarios.map((scenario) =>
    split === "eval"
      ? tasksFor(scenario, "eval", n, start).map((task) => rowFor(scenario, task))
      : Array.from({ length: n ?? 20 }, (_, i) => {
          const { task, site } = generateTask(scenario, "train", start + i);
          return rowFor(scenario, task, site);
        }),
  );
  const rows: ExportRow[] = [];
  const longest = Math.max(0, ...perScenario.map((r) => r.length));
  for (let i = 0; i < longest; i++) for (const list of perScenario) if (list[i]) rows.push(list[i]!);
  return rows;
}

function rowFor(scenario: Scenario, task: Task, site?: Site): ExportRow {
  const episode = createEpisode(scenario, task, site ? { initialSite: site } : {});
  return {
    prompt: [
      { role: "system", content: systemPrompt(episode) },
      { role: "user", content: task.prompt },
    ],
    scenario: scenario.id,
    split: task.split,
    index: task.index,
    task_id: task.id,
    seed: task.seed,
    level: task.level,
    max_tool_calls: episode.expectation.budget,
    expected: JSON.stringify(task.expected),
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
  { name: "schema", num_children: 5 },
  text("data_source"),
  { name: "prompt", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 2 },
  text("role"),
  text("content"),
  text("ability"),
  { name: "reward_model", repetition_type: "REQUIRED", num_children: 2 },
  text("style"),
  text("ground_truth"),
  { name: "extra_info", repetition_type: "REQUIRED", num_children: 7 },
  text("scenario"),
  text("split"),
  int64("index"),
  text("task_id"),
  int64("seed"),
  int64("level"),
  int64("max_tool_calls"),
] as const;

export function verlRecord(row: ExportRow) {
  return {
    data_source: `atlas-gym/${row.scenario}`,
    prompt: row.prompt,
    ability: "tool_use",
    reward_model: { style: "rule", ground_truth: row.expected },
    extra_info: {
      scenario: row.scenario,
      split: row.split,
      index: row.index,
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
    columnData: (["data_source", "prompt", "ability", "reward_model", "extra_info"] as const).map(column),
  });
}

export function writeDataset(format: ExportFormat, rows: readonly ExportRow[], path: string): void {
  if (format === "trl") writeTrlJsonl(rows, path);
  else writeVerlParquet(rows, path);
}
