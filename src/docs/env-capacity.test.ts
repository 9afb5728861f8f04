import { describe, expect, it } from "vitest";
import { benchmarkRates, renderEnvCapacity } from "./env-capacity.ts";

const row = (what: string, rate: string) =>
  `| Env server (loopback) | tool calls (${what}), 256 concurrent sessions, load from another process | 85% of bare (rounds 32%–86%); ${rate} /s (p50 233.3 ms) |  |`;
const page = [
  row("jira_get_issue ENG-1 repeated", "1,400"),
  row("jira_get_issue, a different issue each call, groups of 8 sessions per task", "1,200"),
  row("jira_get_issue, a different issue each call, every session its own task: all computed", "1,000"),
  "| Env server (loopback) | tool calls (jira_get_issue, a different issue each call, every session its own task: all computed), 256 concurrent sessions, load in the same process | 70% of bare; 1,938 /s |  |",
].join("\n");

describe("env-server sizing from the benchmark table", () => {
  it("reads the calls/s of the rows measured with the load in another process", () => {
    expect(benchmarkRates(page)).toEqual({ distinct: 1000, group: 1200, repeated: 1400 });
  });

  it("builds the demand, drain time and server count on that figure", () => {
    const text = renderEnvCapacity(page);
    expect(text).toContain("**1,000 tool calls/s**");
    expect(text).toContain("(1,200/s in groups of 8 sessions per task");
    expect(text).toContain("1,400/s when the same read repeats)");
    expect(text).toContain("4,096 × 11 ÷ 30 s ≈ **1,500 requests/s**");
    expect(text).toContain("4,096 calls drain in ~4.1 s at 1,000/s");
    expect(text).toContain("32,768 tool calls take ~33 s of one server's time");
    expect(text).toContain("the 512-rollout run asks ~19% of one server");
    expect(text).toContain("run at least 4,");
  });

  it("refuses a table without the rows rather than print a stale figure", () => {
    expect(() => renderEnvCapacity("| Env server (loopback) | bare Hono POST route | 1,331 /s |")).toThrow(
      "docs/benchmarks.md has no env-server row",
    );
  });
});
