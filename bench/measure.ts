/**
 * Benchmark helpers: time a function over many iterations after a warm-up, the CPU time of a server
 * child process, medians, and formatting figures.
 */
import type { ChildProcess } from "node:child_process";

export interface Rate {
  opsPerSec: number;
  microsPerOp: number;
  /** This process's CPU time (user + system) per op: steadier than wall time when other jobs load the machine. */
  cpuMicrosPerOp: number;
}

/** Runs `fn` repeatedly for about `ms` milliseconds (after a warm-up) and reports its rate. */
export function rate(fn: (i: number) => void, ms = 1000): Rate {
  const warmUntil = performance.now() + ms / 5;
  let i = 0;
  while (performance.now() < warmUntil) fn(i++);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let n = 0;
  while (performance.now() - start < ms) {
    for (let k = 0; k < 100; k++) fn(i + n++);
  }
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return {
    opsPerSec: (n / elapsed) * 1000,
    microsPerOp: (elapsed * 1000) / n,
    cpuMicrosPerOp: (cpu.user + cpu.system) / n,
  };
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

/** The CPU time (µs) a child server process has used so far (it answers a "cpu" message, see rest-server-process.ts). */
export function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if (typeof message !== "object" || message === null || !("cpu" in message)) return;
      child.off("message", listener);
      resolve((message as { cpu: number }).cpu);
    };
    child.on("message", listener);
    child.send("cpu");
  });
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
