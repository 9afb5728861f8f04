/**
 * The training config: one YAML file, validated once, here. `atlas-gym train` hands the validated config,
 * every default filled in, to `python -m atlas_gym.train` as JSON (`--config-json`); run on its own, the
 * Python trainer asks `atlas-gym train --config <yaml> --print-config` for the same JSON. Python maps
 * these fields onto TRL's GRPOConfig, LoraConfig and the env-server client and validates nothing itself.
 * Keys are snake_case as in TRL; unknown keys are rejected so a typo never silently falls back to a
 * default. Defaults follow TRL's where TRL has one.
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { UsageError } from "../errors.ts";
import { REWARD_MODES } from "../reward/score.ts";

export const LOSS_TYPES = ["dapo", "grpo", "dr_grpo", "bnpo", "cispo", "sapo", "luspo", "vespo"] as const;

const positiveInt = z.number().int().positive();

export const loraSchema = z.strictObject({
  /** Rank of the adapter matrices. */
  r: positiveInt.default(32),
  /** LoRA scaling numerator (lora_alpha). */
  alpha: positiveInt.default(64),
  dropout: z.number().min(0).lt(1).default(0.05),
  /** Module names, or "all-linear". */
  target_modules: z.union([z.literal("all-linear"), z.array(z.string().min(1)).min(1)]).default("all-linear"),
});

export const trainConfigSchema = z
  .strictObject({
    /** Hugging Face model id or a local directory, e.g. Qwen/Qwen3-1.7B. */
    model: z.string().min(1),
    /**
     * Build a tiny random Qwen3 (tokenizer learned offline from the scenarios' own text) at `model` when
     * that directory is missing: the CPU configuration a new user can run with no download.
     */
    build_model_if_missing: z.literal("tiny-random-qwen3").optional(),
    /**
     * Stage 1 of the CPU learning recipe (configs/learn-cpu.yaml), run when `model` is missing: the reference
     * solutions' traces on the train split (`eval --model policy:reference`), then a supervised warm start of a
     * random Qwen3 on them (python/atlas_gym/warm_start.py), saved at `model`.
     */
    warm_start: z
      .strictObject({
        /** Reference episodes per scenario (train split, task indices from 0). */
        reference_tasks: positiveInt.default(100),
        /** Tasks with a smaller index are left out of the warm start (GRPO and `evaluate` use them). */
        skip_index_below: z.number().int().min(0).default(16),
        /** Families of the warm start's traces; default: `scenarios`. */
        scenarios: z.array(z.string().min(1)).min(1).optional(),
        epochs: z.number().positive().default(3),
        learning_rate: z.number().positive().default(3e-3),
        /** Chats per SFT step (batched by similar length, so little padding). */
        batch_size: positiveInt.default(8),
        vocab_size: z.number().int().min(512).default(8192),
        /** A size of python/atlas_gym/testing.py's SIZES. */
        size: z.enum(["tiny", "learn", "small"]).default("learn"),
      })
      .optional(),
    /**
     * Before/after evaluation: `atlas-gym eval` of the model on the first `tasks` train tasks of each scenario,
     * served locally (python/atlas_gym/serve_model.py), before GRPO and after it; results in
     * <output_dir>/eval-before, eval-after and evaluation.json.
     */
    evaluate: z
      .strictObject({
        tasks: positiveInt.default(16),
        /** Samples per task. */
        k: positiveInt.default(2),
        temperature: z.number().min(0).default(1),
        /** Completion tokens per model request. */
        max_tokens: positiveInt.default(256),
      })
      .optional(),
    /**
     * Tool schemas in the prompt: `type_hints` (TRL's, from the environment's typed methods) or `server` (the
     * env server's JSON Schemas, exactly what `eval` sends a model and what the warm start trained on).
     */
    prompt_tools: z.enum(["type_hints", "server"]).default("type_hints"),
    /** LoRA adapters (peft); omit for full fine-tuning. */
    lora: loraSchema.optional(),
    /** Group size G: completions sampled per prompt. */
    num_generations: z.number().int().min(2).default(8),
    learning_rate: z.number().positive().default(1e-5),
    /** KL coefficient; 0 means no reference model. */
    beta: z.number().min(0).default(0),
    /** Lower clip range ε. */
    epsilon: z.number().positive().default(0.2),
    /** Upper clip range (DAPO's clip-higher); defaults to epsilon. */
    epsilon_high: z.number().positive().optional(),
    loss_type: z.enum(LOSS_TYPES).default("dapo"),
    /**
     * Most tool-calling turns per rollout (TRL's max_tool_calling_iterations; the recipe's evaluation
     * runs with the same number as its --max-turns). Absent: derived from the tasks, as eval does
     * (src/agent/turn-limit.ts): the largest `max_turns` the env server states for the dataset's tasks
     * (the call budget + 1), so a 5-step workflow is not cut off and a call past the budget reaches the
     * env and is penalised in training as it is in eval.
     */
    max_turns: positiveInt.optional(),
    /** Tokens of the whole multi-turn completion, tool results included. */
    max_completion_length: positiveInt.default(4096),
    /** Scenario ids to train on (see `atlas-gym tasks --scenario all`). */
    scenarios: z.array(z.string().min(1)).min(1),
    /** Train tasks drawn per scenario for the dataset. */
    train_tasks: positiveInt.default(512),
    /**
     * Only tasks of these levels (see `atlas-gym tasks`): the dataset's `train_tasks` are the first that many
     * of those levels, and the warm start's traces and `evaluate`'s tasks are drawn from them too
     * (`eval --levels`). Absent: every level.
     */
    levels: z.array(z.number().int().min(1).max(6)).min(1).optional(),
    /** Reward the trainer optimises (see src/reward): paper (R1 + R2 − R3), state (end state 0/1) or gated. */
    reward_mode: z.enum(REWARD_MODES).default("paper"),
    vllm: z
      .strictObject({
        enabled: z.boolean().default(false),
        mode: z.literal("colocate").default("colocate"),
      })
      .default({ enabled: false, mode: "colocate" }),
    /** Sampling temperature during rollouts. */
    temperature: z.number().positive().default(1),
    /** Qwen chat-template switch; thinking off by default, as in the paper. */
    enable_thinking: z.boolean().default(false),
    /** Checkpoints, training_log.jsonl and the final adapter go here. */
    output_dir: z.string().min(1).default("runs/train"),
    max_steps: positiveInt.default(1000),
    /** Stop when the mean reward over the last `window` steps reaches `threshold` (the paper stopped at 0.95). */
    early_stopping: z
      .strictObject({
        window: positiveInt.default(10),
        threshold: z.number().min(0).max(1).default(0.95),
      })
      .optional(),
    seed: z.number().int().min(0).default(0),
    per_device_train_batch_size: positiveInt.default(8),
    gradient_accumulation_steps: positiveInt.default(1),
    logging_steps: positiveInt.default(1),
    save_steps: positiveInt.default(100),
    /** Where TRL also reports its metrics (the training log is always written): tensorboard, wandb. */
    report_to: z.array(z.enum(["tensorboard", "wandb"])).default([]),
  })
  .superRefine((config, ctx) => {
    const batch = config.per_device_train_batch_size * config.gradient_accumulation_steps;
    if (batch % config.num_generations !== 0) {
      ctx.addIssue({
        code: "custom",
        path: ["per_device_train_batch_size"],
        message: `per_device_train_batch_size × gradient_accumulation_steps (${batch}) must be a multiple of num_generations (${config.num_generations}) so that every group is complete`,
      });
    }
    if (config.epsilon_high !== undefined && config.epsilon_high < config.epsilon) {
      ctx.addIssue({
        code: "custom",
        path: ["epsilon_high"],
        message: `epsilon_high (${config.epsilon_high}) must not be below epsilon (${config.epsilon})`,
      });
    }
  });

export type TrainConfig = z.output<typeof trainConfigSchema>;

/**
 * Parses and validates a YAML config; every problem is reported at once, by path, as a UsageError.
 * `knownScenarios`, when given, also checks each scenario id.
 */
export function parseTrainConfig(
  text: string,
  source: string,
  knownScenarios?: readonly string[],
  /** Held-out families: a config that trains on one is refused. */
  heldOut: readonly string[] = [],
): TrainConfig {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new UsageError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new UsageError(`${source}: expected a YAML mapping of settings (model, scenarios, ...)`);
  const parsed = trainConfigSchema.safeParse(raw);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  const lists: [string, unknown][] = [
    ["scenarios", (raw as { scenarios?: unknown }).scenarios],
    ["warm_start.scenarios", (raw as { warm_start?: { scenarios?: unknown } }).warm_start?.scenarios],
  ];
  for (const [path, ids] of lists) {
    if (!Array.isArray(ids)) continue;
    for (const id of ids) {
      if (typeof id !== "string") continue;
      if (knownScenarios && !knownScenarios.includes(id))
        problems.push(`  ${path}: unknown scenario "${id}" (known: ${knownScenarios.join(", ")})`);
      if (heldOut.includes(id))
        problems.push(
          `  ${path}: "${id}" is a held-out family (never trained on, so that eval can measure generalisation to it)`,
        );
    }
  }
  if (problems.length > 0 || !parsed.success)
    throw new UsageError(`${source}: invalid training config:\n${problems.join("\n")}`);
  return parsed.data;
}

export function loadTrainConfig(
  path: string,
  knownScenarios?: readonly string[],
  heldOut: readonly string[] = [],
): TrainConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  return parseTrainConfig(text, path, knownScenarios, heldOut);
}
