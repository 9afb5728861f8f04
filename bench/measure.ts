/** Benchmark helpers: time a function over many iterations after a warm-up, and format figures. */

export interface Rate {
  opsPerSec: number;
  microsPerOp: number;
}

/** Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and reports its rate. */
export function rate(fn: (i: number) => void, ms = 1000): Rate {
  const warmUntil = performance.now() + ms / 5;
  let i = 0;
  while (performance.now() < warmUntil) fn(i++);
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    for (let k = 0; k < 100; k++) fn(i + n++);
  }
  const elapsed = performance.now() - start;
  return { opsPerSec: (n / elapsed) * 1000, microsPerOp: (elapsed * 1000) / n };
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("Run benchmarks with node --expose-gc (npm run bench does).");
  collect();
  collect();
}

export const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

export interface BenchRow {
  name: string;
  value: string;
  target?: string;
}
