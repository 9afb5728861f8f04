/**
 * `npm run bench`: runs every benchmark and prints one markdown table (figures are ratios within this
 * run; copy them into docs/benchmarks.md). `npm run bench -- <word>` runs only the groups whose name has it.
 */
import { benchEnvServer } from "./env-server.bench.ts";
import { benchFleet } from "./fleet.bench.ts";
import { benchJournal } from "./journal.bench.ts";
import { benchMcp } from "./mcp.bench.ts";
import type { BenchRow } from "./measure.ts";
import { benchRest } from "./rest.bench.ts";
import { benchRollout } from "./rollout.bench.ts";
import { benchSandbox } from "./sandbox.bench.ts";
import { benchSoak } from "./soak.bench.ts";
import { benchView } from "./view.bench.ts";

const groups: [string, () => BenchRow[] | Promise<BenchRow[]>][] = [
  ["Simulated site (in-process)", benchSandbox],
  ["REST facade (loopback)", () => benchRest()],
  ["Env server (loopback)", () => benchEnvServer()],
  ["Fleet (serve --workers N, loopback)", () => benchFleet()],
  ["MCP (stdio, loopback HTTP)", () => benchMcp()],
  ["Journal (serve --journal, in process)", () => benchJournal()],
  ["Rollouts (openai: vs fake model server)", () => benchRollout()],
  ["Soak (bounded memory, in process)", () => benchSoak()],
  ["View (20,000-episode run, loopback)", () => benchView()],
];

const only = process.argv[2];
console.log(`atlas-gym benchmarks — node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log("| group | measure | result | target |\n|---|---|---|---|");
for (const [group, run] of groups) {
  if (only && !group.toLowerCase().includes(only.toLowerCase())) continue;
  for (const row of await run())
    console.log(`| ${group} | ${row.name} | ${row.value} | ${row.target ?? ""} |`);
}
