/**
 * The trainer's per-step log, `<output_dir>/training_log.jsonl`, written by python/atlas_gym: one JSON
 * object per optimizer step with the reward summary of its GRPO groups (mean/min/max/std, the share of
 * zero-variance groups), KL, tool calls, completion length and the gradient norm. Any value may be null (e.g. KL when
 * beta is 0); a malformed line is reported with its line number.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UsageError } from "../errors.ts";

export const TRAINING_LOG = "training_log.jsonl";

const metric = z.number().nullable().optional();

export const trainingStepSchema = z.looseObject({
  step: z.number().int().min(0),
  mean_reward: metric,
  min_reward: metric,
  max_reward: metric,
  std_reward: metric,
  zero_variance_share: metric,
  kl: metric,
  mean_tool_calls: metric,
  mean_completion_length: metric,
  /** The gradient norm before clipping (transformers' grad_norm): 0 when no group carried a signal. */
  grad_norm: metric,
  rolling_mean_reward: metric,
  early_stop: z.boolean().optional(),
});

export type TrainingStep = z.output<typeof trainingStepSchema>;

export function parseTrainingLog(text: string, source: string): TrainingStep[] {
  const steps: TrainingStep[] = [];
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new UsageError(`${source}:${i + 1}: not JSON (${(error as Error).message})`);
    }
    const parsed = trainingStepSchema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "line"}: ${issue.message}`,
      );
      throw new UsageError(`${source}:${i + 1}: not a training step (${problems.join("; ")})`);
    }
    steps.push(parsed.data);
  }
  if (steps.length === 0) throw new UsageError(`${source}: no training steps logged yet`);
  return steps.sort((a, b) => a.step - b.step);
}

/** Reads `<dir>/training_log.jsonl`. */
export function readTrainingLog(dir: string): TrainingStep[] {
  const path = join(dir, TRAINING_LOG);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `Cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error}): pass the trainer's output_dir.`,
    );
  }
  return parseTrainingLog(text, path);
}

export interface TrainingSummary {
  steps: number;
  lastStep: number;
  firstMeanReward: number | null;
  lastMeanReward: number | null;
  bestRollingMean: number | null;
  earlyStopStep: number | null;
  meanZeroVarianceShare: number | null;
}

export function summarize(steps: readonly TrainingStep[]): TrainingSummary {
  const present = (values: (number | null | undefined)[]) => values.filter((v): v is number => v != null);
  const rewards = present(steps.map((s) => s.mean_reward));
  const rolling = present(steps.map((s) => s.rolling_mean_reward));
  const zero = present(steps.map((s) => s.zero_variance_share));
  return {
    steps: steps.length,
    lastStep: steps[steps.length - 1]!.step,
    firstMeanReward: rewards[0] ?? null,
    lastMeanReward: rewards[rewards.length - 1] ?? null,
    bestRollingMean: rolling.length > 0 ? Math.max(...rolling) : null,
    earlyStopStep: steps.find((s) => s.early_stop)?.step ?? null,
    meanZeroVarianceShare: zero.length > 0 ? zero.reduce((a, b) => a + b, 0) / zero.length : null,
  };
}
