/**
 * docs/training.md's env-server sizing (section 5), generated from the env-server rows of
 * docs/benchmarks.md, so its calls/s and the arithmetic built on them follow each benchmark run.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Tool calls per rollout: the reference solutions' mean over the in-family families, rounded
 * (`atlas-gym eval --model policy:reference --scenarios in-family --split train --n 20` gave 7.9 on
 * 2026-12-03: 3.5–7.2 per single family, 18.6–20.9 per workflow family).
 */
export const CALLS_PER_ROLLOUT = 8;
/** A trajectory also opens, scores and deletes its session. */
const SESSION_REQUESTS = 3;
const ROLLOUTS = [512, 4096] as const;
const STEP_S = [30, 60] as const;

const BENCH_ROW = (what: string) =>
  new RegExp(
    `^\\| Env server \\(loopback\\) \\| tool calls \\(jira_get_issue,? ${what}\\), 256 concurrent sessions, load from another process \\|[^|]*?([\\d,]+) /s`,
    "m",
  );

/** The bench rows' names (bench/tool-call-load.ts's mixes). */
const COMPUTED_ROW = "a different issue each call, every session its own task: all computed";
const GROUP_ROW = "a different issue each call, groups of 8 sessions per task";
const REPEATED_ROW = "ENG-1 repeated";

/**
 * The env server's tool calls/s in benchmarks.md: every answer computed (what the sizing is built on: a
 * rollout's calls after its first write are computed), a GRPO-like group's shared reads, one read repeated.
 */
export function benchmarkRates(text?: string): { distinct: number; group: number; repeated: number } {
  const page =
    text ?? readFileSync(fileURLToPath(new URL("../../docs/benchmarks.md", import.meta.url)), "utf8");
  const rate = (what: string) => {
    const m = page.match(BENCH_ROW(what));
    if (!m) throw new Error(`docs/benchmarks.md has no env-server row for "${what}"`);
    return Number(m[1]!.replace(/,/g, ""));
  };
  return { distinct: rate(COMPUTED_ROW), group: rate(GROUP_ROW), repeated: rate(REPEATED_ROW) };
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const round10 = (x: number) => n(Math.round(x / 10) * 10);

/** The demand, supply, bursts and how-many-servers paragraphs of section 5. */
export function renderEnvCapacity(text?: string): string {
  const { distinct, group, repeated } = benchmarkRates(text);
  const perRollout = CALLS_PER_ROLLOUT + SESSION_REQUESTS;
  const [small, large] = ROLLOUTS;
  const [fast, slow] = STEP_S;
  const demand = (rollouts: number, step: number) => (rollouts * perRollout) / step;
  const half = distinct / 2;
  const servers = Math.ceil(demand(large, fast) / half);
  const stepCalls = large * CALLS_PER_ROLLOUT;
  return [
    `- **Requests per rollout.** ${CALLS_PER_ROLLOUT} tool calls (the reference solutions' mean over the in-family families, rounded: \`./bin/atlas-gym eval --model policy:reference --scenarios in-family --split train --n 20\`, the \`calls\` column, gave 7.9 on 2026-12-03 — 3.5–7.2 per single family, 18.6–20.9 per workflow family; a learning policy makes about as many, failed calls included), plus opening, scoring and deleting its session: **${perRollout} requests per rollout**.`,
    `- **Demand.** ${n(small)} × ${perRollout} ÷ ${fast} s ≈ **${round10(demand(small, fast))} requests/s**; ${n(large)} × ${perRollout} ÷ ${fast} s ≈ **${round10(demand(large, fast))} requests/s** (≈ ${round10(demand(large, slow))}/s at ${slow} s).`,
    `- **Supply.** One env server (single-threaded Node) delivered **${n(distinct)} tool calls/s** with 256 concurrent sessions, \`jira_get_issue\` on a different issue each call with every answer computed (${n(group)}/s in groups of 8 sessions per task, whose reads before their first write are shared, as in a GRPO group; ${n(repeated)}/s when the same read repeats), in the run recorded in [benchmarks.md](benchmarks.md) (its "Env server (loopback)" rows, load from another process; \`npm run bench -- "Env server"\` reruns them, and \`./bin/atlas-gym docs\` regenerates these lines from that table; measured on the shared 2-core development machine under load, so a quiet machine does better). Session open, score and delete were not benchmarked separately; they are assumed to cost about as much as a call.`,
    `- **Bursts.** Calls arrive in waves: when a generation turn ends, every rollout's call lands at once. ${n(large)} calls drain in ~${(large / distinct).toFixed(1)} s at ${n(distinct)}/s, and a ${n(large)}-rollout step's ${n(stepCalls)} tool calls take ~${Math.round(stepCalls / distinct)} s of one server's time.`,
    "",
    `**When to run several servers.** One server is enough while the average demand stays under about half its measured rate (~${round10(half)} requests/s) and a wave drains in a small fraction of a turn: the ${n(small)}-rollout run asks ~${Math.round((100 * demand(small, fast)) / distinct)}% of one server. At ${n(large)} rollouts per step (≈ ${round10(demand(large, fast))} requests/s at ${fast} s steps) run at least ${servers}, and more with short steps (small models, short responses):`,
  ].join("\n");
}
