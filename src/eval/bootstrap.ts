/**
 * Seeded bootstrap confidence intervals for comparing two eval runs. Tasks are the resampling unit (a
 * cluster bootstrap): each replicate draws tasks with replacement within each scenario (stratified), and
 * the replicate's mean is the mean reward over the drawn tasks' episodes, so point estimates equal the
 * runs' episode means. When both runs hold the same tasks the draw is paired (the same tasks for A and B,
 * so the delta's interval reflects the per-task differences); otherwise A and B are drawn independently.
 * Intervals are percentile intervals (linear interpolation between order statistics).
 */
import { createRandom, type Random } from "../sandbox/random.ts";

/** One task's episodes in one run: the sum of their rewards and how many there are. */
export interface TaskRewards {
  sum: number;
  count: number;
}

/** One scenario's tasks in runs A and B; when `paired`, a[i] and b[i] are the same task. */
export interface Stratum {
  a: readonly TaskRewards[];
  b: readonly TaskRewards[];
  paired: boolean;
}

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

export interface BootstrapResult {
  a: Interval;
  b: Interval;
  /** B − A. */
  delta: Interval;
}

export interface BootstrapOptions {
  resamples: number;
  /** Seed of the replicate draws; each row derives its own stream from it and its label. */
  seed: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

const pooledMean = (tasks: readonly TaskRewards[]) => {
  const { sum, count } = tasks.reduce((t, x) => ({ sum: t.sum + x.sum, count: t.count + x.count }), {
    sum: 0,
    count: 0,
  });
  return count === 0 ? Number.NaN : sum / count;
};

/** The q-quantile of sorted values (linear interpolation, as numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function draw(random: Random, size: number): number[] {
  return Array.from({ length: size }, () => random.int(0, size - 1));
}

/** Bootstrap intervals for the means of A and B and their difference over the given strata. */
export function bootstrapCompare(
  strata: readonly Stratum[],
  label: string,
  { resamples, seed, level = 0.95 }: BootstrapOptions,
): BootstrapResult {
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  const random = createRandom(`bootstrap:${seed}:${label}`);
  const as: number[] = [];
  const bs: number[] = [];
  const ds: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sumA = 0;
    let countA = 0;
    let sumB = 0;
    let countB = 0;
    for (const s of strata) {
      const pickA = draw(random, s.a.length);
      const pickB = s.paired ? pickA : draw(random, s.b.length);
      for (const i of pickA) {
        sumA += s.a[i]!.sum;
        countA += s.a[i]!.count;
      }
      for (const i of pickB) {
        sumB += s.b[i]!.sum;
        countB += s.b[i]!.count;
      }
    }
    const a = sumA / countA;
    const b = sumB / countB;
    as.push(a);
    bs.push(b);
    ds.push(b - a);
  }
  const tail = (1 - level) / 2;
  const interval = (mean: number, values: number[]): Interval => {
    const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
    return { mean, low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
  };
  const meanA = pooledMean(strata.flatMap((s) => s.a));
  const meanB = pooledMean(strata.flatMap((s) => s.b));
  return { a: interval(meanA, as), b: interval(meanB, bs), delta: interval(meanB - meanA, ds) };
}
