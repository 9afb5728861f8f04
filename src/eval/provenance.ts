/**
 * Where a run's numbers come from, written into run.json and results.json: the atlas-gym version and
 * git commit, start and end time, the model and its provider settings, the tool set, split, n, k, seed,
 * reward mode, and each scenario's version and the content hash of its frozen eval split.
 */

import { loadEvalSplit } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { gitCommit, VERSION } from "../version.ts";
import { renameKeys, snakeCase } from "./json-keys.ts";
import type { EvalConfig } from "./run-dir.ts";

export interface ScenarioProvenance {
  /** The scenario's version (the `-vN` of its id). */
  version: string;
  /** sha256 of its frozen eval split's tasks (null when it has none). */
  eval_split_sha256: string | null;
}

export interface Provenance {
  atlas_gym_version: string;
  git_commit: string | null;
  started_at: string;
  /** Null until the run finishes. */
  ended_at: string | null;
  model: string;
  /** Provider settings as given (snake_case); absent ones took the provider's defaults. */
  provider: Record<string, unknown>;
  tools: string;
  split: string;
  /** Tasks per scenario (null: the whole eval split). */
  n: number | null;
  /** Only tasks of these levels (null: every level). */
  levels: number[] | null;
  k: number;
  seed: number;
  reward_mode: string;
  /** The run's turn limit; null: each task's own (its call budget + 1, src/agent/turn-limit.ts). */
  max_turns: number | null;
  scenarios: Record<string, ScenarioProvenance>;
}

export function scenarioProvenance(id: string): ScenarioProvenance {
  const scenario = findScenario(id);
  let hash: string | null = null;
  try {
    hash = loadEvalSplit(scenario).sha256;
  } catch {}
  return { version: /-(v\d+)$/.exec(id)?.[1] ?? "v1", eval_split_sha256: hash };
}

export function provenanceOf(config: EvalConfig, startedAt: Date): Provenance {
  return {
    atlas_gym_version: VERSION,
    git_commit: gitCommit(),
    started_at: startedAt.toISOString(),
    ended_at: null,
    model: config.model,
    provider: renameKeys(config.provider, snakeCase),
    tools: config.tools,
    split: config.split,
    n: config.n ?? null,
    levels: config.levels ? [...config.levels] : null,
    k: config.k,
    seed: config.seed,
    reward_mode: config.reward,
    max_turns: config.maxTurns ?? null,
    scenarios: Object.fromEntries(config.scenarios.map((id) => [id, scenarioProvenance(id)])),
  };
}
