/**
 * `atlas-gym eval`: evaluates a model or scripted policy on scenarios and writes <out>/episodes.jsonl
 * (one line per finished episode), results.json, report.md and report.html, printing the results table.
 * With --resume, settings not given on the command line come from the run's run.json.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { scriptedPolicyHelp } from "../../agent/scripted/policy-names.ts";
import { UsageError } from "../../errors.ts";
import type { EvalConfig, EvalConfigInput } from "../../eval/run-dir.ts";
import { REWARD_MODES, type RewardMode } from "../../reward/score.ts";
import type { Level } from "../../scenarios/define-scenario.ts";
import { TOOL_SET_NAMES } from "../../tools/aliases/tool-sets.ts";
import { parseIntegerOption } from "../options.ts";

interface EvalFlags {
  model?: string;
  scenarios: string;
  split: "eval" | "train";
  n?: number;
  levels?: Level[];
  k: number;
  concurrency: number;
  seed: number;
  reward: RewardMode;
  out?: string;
  resume: boolean;
  maxTurns?: number;
  tools?: "default" | "rovo" | "mcp-atlassian";
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  chatTemplateKwargs?: Record<string, unknown>;
  rawFormat?: "qwen3" | "qwen3.5";
  timeout?: number;
  retries?: number;
  apiKeyEnv?: string;
}

function parseNumber(flag: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`${flag} must be a number from ${min} to ${max}, got '${value}'.`);
    return n;
  };
}

function parseLevels(value: string): Level[] {
  const parts = value.split(",").map((part) => part.trim());
  if (parts.some((part) => !/^[1-6]$/.test(part)))
    throw new InvalidArgumentError(
      `--levels takes levels from 1 to 6, comma-separated (e.g. 1,2), got '${value}'.`,
    );
  return [...new Set(parts.map(Number))].sort() as Level[];
}

function parseJsonObject(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {}
  throw new InvalidArgumentError(`expected a JSON object, e.g. '{"enable_thinking":false}', got '${value}'.`);
}

/** The run's configuration: flags given on the command line win; others come from a resumed run.json. */
function resolveConfig(
  flags: EvalFlags,
  command: Command,
  defaults: { select: (spec: string) => string[] },
  saved: EvalConfig | undefined,
): EvalConfigInput {
  const given = (name: string) => command.getOptionValueSource(name) === "cli";
  const pick = <T>(name: string, value: T, fromSaved: T | undefined): T =>
    saved && !given(name) ? (fromSaved as T) : value;
  const scenarios = defaults.select(flags.scenarios);
  const provider = {
    temperature: pick("temperature", flags.temperature, saved?.provider.temperature),
    topP: pick("topP", flags.topP, saved?.provider.topP),
    maxTokens: pick("maxTokens", flags.maxTokens, saved?.provider.maxTokens),
    chatTemplateKwargs: pick(
      "chatTemplateKwargs",
      flags.chatTemplateKwargs,
      saved?.provider.chatTemplateKwargs,
    ),
    rawFormat: pick("rawFormat", flags.rawFormat, saved?.provider.rawFormat),
    timeoutMs: pick(
      "timeout",
      flags.timeout === undefined ? undefined : flags.timeout * 1000,
      saved?.provider.timeoutMs,
    ),
    retries: pick("retries", flags.retries, saved?.provider.retries),
    apiKeyEnv: pick("apiKeyEnv", flags.apiKeyEnv, saved?.provider.apiKeyEnv),
  };
  return {
    model: pick("model", flags.model, saved?.model) as string,
    scenarios: pick("scenarios", scenarios, saved?.scenarios),
    split: pick("split", flags.split, saved?.split),
    n: pick("n", flags.n, saved?.n),
    levels: pick("levels", flags.levels, saved?.levels),
    k: pick("k", flags.k, saved?.k),
    concurrency: pick("concurrency", flags.concurrency, saved?.concurrency),
    seed: pick("seed", flags.seed, saved?.seed),
    reward: pick("reward", flags.reward, saved?.reward),
    maxTurns: pick("maxTurns", flags.maxTurns, saved?.maxTurns),
    tools: pick("tools", flags.tools, saved?.tools),
    provider: Object.fromEntries(Object.entries(provider).filter(([, v]) => v !== undefined)),
  };
}

/** Exit status of a run in which some episodes ended in a provider error. */
export const PROVIDER_ERROR_EXIT = 3;

export function registerEval(program: Command): void {
  program
    .command("eval")
    .description(
      "Evaluate a model or scripted policy; writes episodes.jsonl, results.json, report.md, report.html",
    )
    .option(
      "--model <spec>",
      "openai:<base-url>#<model> | raw:<base-url>#<model> | local:<gguf path or hf:repo/file> | policy:<name> (required, except with --resume)",
    )
    .option(
      "--scenarios <ids>",
      "comma-separated scenario ids, or 'all', 'in-family' (trained families) or 'heldout' (held-out families)",
      "all",
    )
    .addOption(new Option("--split <split>", "task split").choices(["eval", "train"]).default("eval"))
    .option(
      "--n <n>",
      "tasks per scenario (default: the whole eval split; 20 for train)",
      parseIntegerOption("--n", 1, 1_000_000),
    )
    .option(
      "--levels <list>",
      "only tasks of these levels, comma-separated, e.g. 1 or 1,2 (--n counts those)",
      parseLevels,
    )
    .option("--k <k>", "samples per task (the k of pass^k)", parseIntegerOption("--k", 1, 1000), 1)
    .option("--concurrency <c>", "episodes run at once", parseIntegerOption("--concurrency", 1, 1024), 4)
    .option(
      "--seed <s>",
      "sampling seed passed to the model",
      parseIntegerOption("--seed", 0, 2 ** 31 - 1),
      0,
    )
    .addOption(new Option("--reward <mode>", "reward mode").choices(REWARD_MODES).default("paper"))
    .option("--out <dir>", "run directory (default: out/eval-<model name>)")
    .option("--resume", "continue the run in --out, skipping episodes already logged", false)
    .option(
      "--max-turns <n>",
      "model requests per episode at most (default: each task's own, its call budget + 1)",
      parseIntegerOption("--max-turns", 1, 10_000),
    )
    .addOption(
      new Option(
        "--tools <set>",
        "tool names and argument shapes offered to the model (default: default)",
      ).choices(TOOL_SET_NAMES),
    )
    .option("--temperature <t>", "sampling temperature", parseNumber("--temperature", 0, 2))
    .option("--top-p <p>", "nucleus sampling top_p", parseNumber("--top-p", 0, 1))
    .option(
      "--max-tokens <n>",
      "completion tokens per request",
      parseIntegerOption("--max-tokens", 1, 1_000_000),
    )
    .option("--chat-template-kwargs <json>", "e.g. '{\"enable_thinking\":false}'", parseJsonObject)
    .addOption(
      new Option("--raw-format <format>", "prompt format of raw: models").choices(["qwen3", "qwen3.5"]),
    )
    .option("--timeout <s>", "seconds per model request", parseNumber("--timeout", 0.001, 86_400))
    .option("--retries <n>", "retries of a failed model request", parseIntegerOption("--retries", 0, 100))
    .option("--api-key-env <name>", "environment variable holding the API key (default OPENAI_API_KEY)")
    .addHelpText(
      "after",
      `\nScripted policies (--model policy:<name>), deterministic baselines for checking rewards:\n${scriptedPolicyHelp()}\n\nExit status: 0 when every episode was scored; 3 when some ended in a provider error (rerun them with --resume); 1 on bad input or an unreachable model server.`,
    )
    .action(async (flags: EvalFlags, command: Command) => {
      const { selectScenarios } = await import("../../scenarios/index.ts");
      const { defaultRunDir, readRunConfig, runFiles } = await import("../../eval/run-dir.ts");
      const { evaluate, providerErrors } = await import("../../eval/evaluate.ts");
      const { createProgress } = await import("../../eval/progress.ts");
      const { terminalTable } = await import("../../eval/report-md.ts");

      const { missingModel } = await import("./eval-model.ts");
      const missing = missingModel(flags);
      if (missing) throw new UsageError(missing);
      const dir = flags.out ?? defaultRunDir(flags.model!);
      const saved = flags.resume ? readRunConfig(dir) : undefined;
      // Resuming takes the model (and what else is not given) from the run's run.json: say when there is none.
      if (flags.resume && saved === undefined && flags.model === undefined)
        throw new UsageError(
          `--resume found no run to continue in ${dir} (no run.json there): give the --out of an earlier run, or start one with --model`,
        );
      const select = (spec: string) => selectScenarios(spec).map((s) => s.id);
      const defaults = { select };
      const config = resolveConfig(flags, command, defaults, saved);

      const controller = new AbortController();
      const interrupt = () => {
        process.stderr.write("\ninterrupted: stopping; finished episodes stay in episodes.jsonl\n");
        controller.abort(new Error("interrupted"));
      };
      process.once("SIGINT", interrupt);
      process.once("SIGTERM", interrupt);
      try {
        const summary = await evaluate({
          config,
          dir,
          resume: flags.resume,
          signal: controller.signal,
          progress: createProgress(),
        });
        if (!summary.results) {
          console.error(`Stopped before the end; continue with: atlas-gym eval --resume --out ${dir}`);
          process.exitCode = 130;
          return;
        }
        console.log(terminalTable(summary.results, config.k));
        const files = runFiles(dir);
        const already = summary.skipped ? `, ${summary.skipped} already done` : "";
        console.log(
          `\n${summary.ran} episode${summary.ran === 1 ? "" : "s"} run${already}; wrote ${files.results}, ${files.reportMd}, ${files.reportHtml}`,
        );
        // Last, unless an outage needs rerunning (that is said last, below).
        console.log(`Read it in the browser: atlas-gym view ${dir}`);
        const errors = providerErrors(summary);
        if (errors > 0) {
          // An outage is not a model result: say so last, and how to rerun only those episodes.
          console.log(
            `${errors} episode${errors === 1 ? "" : "s"} ended in a provider error and ${errors === 1 ? "was" : "were"} not scored; rerun ${errors === 1 ? "it" : "them"} with: atlas-gym eval --resume --out ${dir}`,
          );
          process.exitCode = PROVIDER_ERROR_EXIT;
        }
      } finally {
        process.off("SIGINT", interrupt);
        process.off("SIGTERM", interrupt);
      }
    });
}
