/**
 * An eval run directory: `run.json` (the configuration and provenance, so `--resume` continues the same run),
 * `episodes.jsonl` (one line per finished episode), and at the end `results.json`, `report.md` and
 * `report.html`. Resuming with a different model, split, seed, reward mode or turn limit would mix two
 * runs in one file, so it is refused.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UsageError } from "../errors.ts";
import { REWARD_MODES } from "../reward/score.ts";
import type { Level } from "../scenarios/define-scenario.ts";
import { TOOL_SET_NAMES, type ToolSetName } from "../tools/aliases/tool-sets.ts";
import { camelCase, renameKeys } from "./json-keys.ts";
import type { Provenance } from "./provenance.ts";

export const runFiles = (dir: string) => ({
  config: join(dir, "run.json"),
  episodes: join(dir, "episodes.jsonl"),
  results: join(dir, "results.json"),
  reportMd: join(dir, "report.md"),
  reportHtml: join(dir, "report.html"),
});

/**
 * The run directory used when no --out is given: `out/eval-<model name>` — the name after `#` of a
 * server spec, the GGUF file of a local one, `policy-<name>` for a scripted policy (never a URL's host
 * or port).
 */
export function defaultRunDir(spec: string): string {
  const kind = spec.slice(0, Math.max(0, spec.indexOf(":")));
  const rest = spec.slice(spec.indexOf(":") + 1);
  const name =
    kind === "openai" || kind === "raw"
      ? rest.slice(rest.indexOf("#") + 1)
      : kind === "local"
        ? (rest.split(/[/\\]/).pop() ?? rest).replace(/\.gguf$/i, "")
        : spec;
  const slug = name
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(-60);
  return `out/eval-${slug || "model"}`;
}

export const EvalConfig = z.object({
  model: z.string().min(1),
  scenarios: z.array(z.string().min(1)).min(1),
  split: z.enum(["eval", "train"]),
  /** Tasks per scenario (all of the frozen eval split when absent). */
  n: z.number().int().min(1).optional(),
  /** Only tasks of these levels (the first `n` of them); absent: every level. */
  levels: z
    .array(z.number().int().min(1).max(6) as z.ZodType<Level>)
    .min(1)
    .optional(),
  k: z.number().int().min(1),
  concurrency: z.number().int().min(1),
  seed: z.number().int().min(0),
  reward: z.enum(REWARD_MODES),
  /** Model requests per episode at most; absent: each task's own limit (src/agent/turn-limit.ts). */
  maxTurns: z.number().int().min(1).optional(),
  /** Which tool names and argument shapes the model is offered (rewards are the same for every set). */
  tools: z.enum(TOOL_SET_NAMES as unknown as [ToolSetName, ...ToolSetName[]]).default("default"),
  /** Model provider settings (see createPolicy); absent ones take the provider's defaults. */
  provider: z
    .object({
      temperature: z.number().min(0).max(2).optional(),
      topP: z.number().min(0).max(1).optional(),
      maxTokens: z.number().int().min(1).optional(),
      chatTemplateKwargs: z.record(z.string(), z.unknown()).optional(),
      rawFormat: z.enum(["qwen3", "qwen3.5"]).optional(),
      timeoutMs: z.number().int().min(1).optional(),
      retries: z.number().int().min(0).optional(),
      apiKeyEnv: z.string().min(1).optional(),
    })
    .default({}),
});
export type EvalConfig = z.infer<typeof EvalConfig>;
/** An eval configuration as callers write it (provider settings may be left out). */
export type EvalConfigInput = z.input<typeof EvalConfig>;

/** Settings a resumed run must share with the run it continues. */
export const IDENTITY_KEYS = ["model", "split", "levels", "seed", "reward", "maxTurns", "tools"] as const;

/** run.json: the run's provenance (snake_case, see provenance.ts) and its concurrency. */
export type RunFile = Provenance & { concurrency: number };

/** The configuration of the run in `dir` (from its run.json), with its provenance; undefined when none. */
export function readRunFile(dir: string): { config: EvalConfig; provenance: Provenance } | undefined {
  const path = runFiles(dir).config;
  if (!existsSync(path)) return undefined;
  const file = JSON.parse(readFileSync(path, "utf8")) as Partial<RunFile>;
  const parsed = EvalConfig.safeParse({
    model: file.model,
    scenarios: Object.keys(file.scenarios ?? {}),
    split: file.split,
    n: file.n ?? undefined,
    levels: file.levels ?? undefined,
    k: file.k,
    concurrency: file.concurrency,
    seed: file.seed,
    reward: file.reward_mode,
    maxTurns: file.max_turns ?? undefined,
    tools: file.tools,
    provider: renameKeys(file.provider ?? {}, camelCase),
  });
  if (!parsed.success)
    throw new UsageError(`${path} is not an eval run configuration: ${parsed.error.issues[0]?.message}`);
  const { concurrency: _, ...provenance } = file as RunFile;
  return { config: parsed.data, provenance };
}

export function readRunConfig(dir: string): EvalConfig | undefined {
  return readRunFile(dir)?.config;
}

export function writeRunConfig(dir: string, config: EvalConfig, provenance: Provenance): void {
  const file: RunFile = { ...provenance, concurrency: config.concurrency };
  writeFileSync(runFiles(dir).config, `${JSON.stringify(file, null, 2)}\n`);
}

/** Provider settings that change what the model generates (timeouts, retries and the key do not). */
export const SAMPLING_KEYS = ["temperature", "topP", "maxTokens", "chatTemplateKwargs", "rawFormat"] as const;

/** The settings in which `next` differs from the saved run, as "name: saved → next" strings. */
export function identityConflicts(saved: EvalConfig, next: EvalConfig): string[] {
  const show = (v: unknown) => (v === undefined ? "default" : JSON.stringify(v));
  const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  return [
    ...IDENTITY_KEYS.filter((key) => differ(saved[key], next[key])).map(
      (key) => `${key}: ${show(saved[key])} → ${show(next[key])}`,
    ),
    ...SAMPLING_KEYS.filter((key) => differ(saved.provider[key], next.provider[key])).map(
      (key) => `${key}: ${show(saved.provider[key])} → ${show(next.provider[key])}`,
    ),
  ];
}
