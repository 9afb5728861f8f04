/**
 * pass^k as in tau-bench: the probability that k independent samples of a task all pass, estimated per
 * task from its n samples with c passes by the unbiased combinatorial estimator C(c, k) / C(n, k), and
 * averaged over tasks. With n = k it is the fraction of tasks whose every sample passed.
 */

/** C(c, k) / C(n, k) for one task, computed as a product so it never overflows. */
export function passHatKForTask(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || k < 1 || c < 0 || c > n)
    throw new RangeError(`pass^k needs integers 0 <= c <= n and k >= 1, got n=${n} c=${c} k=${k}`);
  if (k > n) throw new RangeError(`pass^${k} needs at least ${k} samples of a task, got ${n}`);
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return Math.max(0, p);
}

/**
 * The mean of pass^k over tasks, from each task's sample count and pass count. Tasks with fewer than
 * k samples (an unfinished run) are left out; null when no task has k samples.
 */
export function passHatK(tasks: Iterable<{ n: number; c: number }>, k: number): number | null {
  let sum = 0;
  let count = 0;
  for (const { n, c } of tasks) {
    if (n < k) continue;
    sum += passHatKForTask(n, c, k);
    count++;
  }
  return count === 0 ? null : sum / count;
}
