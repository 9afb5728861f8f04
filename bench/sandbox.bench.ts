/**
 * Site benchmarks, as ratios within one run: fork() vs rebuilding the fixture from its seed, in-process
 * getIssue and createIssue throughput, and heap per untouched fork.
 */
import { executeOperation } from "../src/sandbox/execute.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../src/sandbox/fixtures/default-site.ts";
import { findOperation } from "../src/sandbox/operations.ts";
import type { Site } from "../src/sandbox/site.ts";
import { type BenchRow, fmt, gc, rate } from "./measure.ts";

const ctx = { baseUrl: "http://127.0.0.1:4010", accountId: AGENT_ACCOUNT_ID };

export function benchSandbox(): BenchRow[] {
  const template = createSite({ seed: 1 });
  const rebuild = rate(() => createSite({ seed: 1 }), 1500);
  const fork = rate(() => template.fork(), 1500);

  const getIssue = findOperation("getIssue")!;
  const keys = [...template.values("issues")].map((i) => i.key);
  const reads = rate(
    (i) => executeOperation(template, getIssue, { params: { issueIdOrKey: keys[i % keys.length] } }, ctx),
    1500,
  );

  const createIssue = findOperation("createIssue")!;
  let site = template.fork();
  const body = {
    fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "Benchmark issue" },
  };
  const writes = rate((i) => {
    if (i % 500 === 0) site = template.fork();
    const result = executeOperation(site, createIssue, { params: {}, body }, ctx);
    if (result.status !== 201) throw new Error(`createIssue answered ${result.status}`);
  }, 1500);

  const heapPerFork = measureForkHeap(template);
  return [
    { name: "rebuild site from seed", value: `${fmt(rebuild.microsPerOp)} µs` },
    { name: "fork() default fixture", value: `${fmt(fork.microsPerOp, 3)} µs`, target: "≤ 50 µs" },
    { name: "fork speed-up over rebuild", value: `${fmt(rebuild.microsPerOp / fork.microsPerOp, 0)}×` },
    { name: "in-process getIssue", value: `${fmt(reads.opsPerSec, 0)} /s`, target: "≥ 50,000 /s" },
    { name: "in-process createIssue", value: `${fmt(writes.opsPerSec, 0)} /s` },
    { name: "heap per untouched fork", value: `${fmt(heapPerFork / 1024, 2)} KB`, target: "≤ 200 KB" },
    { name: "heap of the fixture itself", value: `${fmt(measureSiteHeap() / 1024, 0)} KB` },
  ];
}

function measureForkHeap(template: Site): number {
  const n = 10_000;
  gc();
  const before = process.memoryUsage().heapUsed;
  const forks: Site[] = [];
  for (let i = 0; i < n; i++) forks.push(template.fork());
  gc();
  const after = process.memoryUsage().heapUsed;
  if (forks.length !== n) throw new Error("unreachable");
  return (after - before) / n;
}

function measureSiteHeap(): number {
  const n = 50;
  gc();
  const before = process.memoryUsage().heapUsed;
  const sites = Array.from({ length: n }, (_, i) => createSite({ seed: i }));
  gc();
  const after = process.memoryUsage().heapUsed;
  if (sites.length !== n) throw new Error("unreachable");
  return (after - before) / n;
}
