import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTrace } from "./_trace-fixtures.ts";
import { buildResults, outcomeOf } from "./metrics.ts";
import { drillDownOutcomes } from "./report-html.ts";
import { terminalTable } from "./report-md.ts";
import { type EvalConfig, runFiles } from "./run-dir.ts";
import { writeReports } from "./write-reports.ts";

const A = "jira-transition-v1";
const B = "jira-subtask-create-v1";
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'quotes'`;

const config: EvalConfig = {
  model: "policy:fixture",
  scenarios: [A, B],
  split: "eval",
  k: 2,
  concurrency: 1,
  seed: 0,
  reward: "paper",
  maxTurns: 10,
  tools: "default",
  provider: {},
};

function runDir() {
  const dir = mkdtempSync(join(tmpdir(), "atlas-report-"));
  const traces = [
    makeTrace({ scenario: A, index: 0, sample: 0, reward: 1 }),
    makeTrace({ scenario: A, index: 0, sample: 1, reward: 0.75, passed: true, final: HOSTILE }),
    makeTrace({
      scenario: B,
      index: 0,
      sample: 0,
      reward: 0.1,
      passed: false,
      violations: ["hallucinated_tool"],
      observation: HOSTILE,
    }),
    makeTrace({
      scenario: B,
      index: 0,
      sample: 1,
      reward: 0,
      passed: false,
      calls: 0,
      violations: ["missing_mutation"],
      error: { type: "rate_limited", message: "429 <slow down>", status: 429 },
    }),
  ];
  writeFileSync(runFiles(dir).episodes, traces.map((t) => `${JSON.stringify(t)}\n`).join(""));
  return { dir, traces };
}

describe("eval reports", () => {
  it("writes results.json, report.md and a self-contained report.html", async () => {
    const { dir, traces } = runDir();
    const { results } = await writeReports(dir, config, { scenarios: [A, B] });
    const files = runFiles(dir);
    expect(JSON.parse(readFileSync(files.results, "utf8"))).toEqual(
      buildResults({
        model: config.model,
        rewardMode: "paper",
        outcomes: traces.map(outcomeOf),
        k: 2,
        scenarios: [A, B],
      }),
    );
    expect(results.scenarios[B]!.failures.hallucinated_tool).toBe(1);

    const md = readFileSync(files.reportMd, "utf8");
    expect(md).toContain(`| ${A} | 2 | 0.875 | 0.750 | 1.000 | 0.125 | 1.000 | 1.000 | 1.0 |`);
    expect(md).toContain("provider errors: rate_limited ×1");

    const html = readFileSync(files.reportHtml, "utf8");
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
    // No resource is fetched from anywhere: no src/href other than fragments or data.
    expect(html.match(/\s(?:src|href)="(?!#|data:)[^"]*"/g)).toBeNull();
    expect(html.match(/<details class="episode"/g)).toHaveLength(4);
    // Model and tool text is escaped wherever it appears.
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;quotes&#39;",
    );
    expect(html).toContain("429 &lt;slow down&gt;");
    expect(html).toContain("R3 [hallucinated_tool] hallucinated_tool happened");
    expect(html).toContain("jira_get_issue");
    expect(html).toContain("getIssue");
  });

  it("shows the raw model output and parse problems of a turn beside its parsed message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-"));
    const trace = makeTrace({ scenario: A });
    const raw =
      '<think>hmm</think><tool_call>{"name": "jira_get_issue", "arguments": {"issueIdOrKey": "ENG-1"}}</tool_call>';
    trace.turns = [
      {
        request: 2,
        turn: { message: trace.messages[2]!, raw, problems: ["trailing <text> ignored"], latencyMs: 3 },
        calls: [],
      },
    ];
    writeFileSync(runFiles(dir).episodes, `${JSON.stringify(trace)}\n`);
    await writeReports(dir, { ...config, scenarios: [A] }, { scenarios: [A] });
    const html = readFileSync(runFiles(dir).reportHtml, "utf8");
    expect(html).toContain("&lt;think&gt;hmm&lt;/think&gt;&lt;tool_call&gt;");
    expect(html).toContain("parse problems: trailing &lt;text&gt; ignored");
  });

  it("drills into failed episodes first when a run is larger than the cap", () => {
    const outcomes = [
      makeTrace({ index: 0, reward: 1 }),
      makeTrace({ index: 1, reward: 0, passed: false }),
      makeTrace({ index: 2, reward: 1 }),
      makeTrace({ index: 3, reward: 0.2, passed: false }),
    ].map(outcomeOf);
    expect(drillDownOutcomes(outcomes, [A], 3).map((o) => o.taskId.split("/")[2])).toEqual(["0", "1", "3"]);
    expect(drillDownOutcomes(outcomes, [A], 10)).toHaveLength(4);
  });

  it("prints the results table and failures for the terminal", () => {
    const { traces } = runDir();
    const results = buildResults({
      model: "m",
      rewardMode: "paper",
      outcomes: traces.map(outcomeOf),
      k: 2,
      scenarios: [A, B],
    });
    const table = terminalTable(results, 2);
    expect(table).toMatch(/scenario\s+episodes\s+mean\s+min\s+max\s+std\s+pass\s+pass\^2\s+calls/);
    expect(table).toMatch(new RegExp(`${A}\\s+2\\s+0\\.875`));
    expect(table).toContain(`${B}: hallucinated_tool ×1, missing_mutation ×1`);
    expect(table).toMatch(/overall\s+4\s+0\.463/);
  });
});

describe("episode drill-down", () => {
  it("shows what the task expected when the trace carries its expectation", async () => {
    const { episodeHtml } = await import("./episode-html.ts");
    const expectation = {
      entities: [
        {
          kind: "update" as const,
          ref: "issue",
          label: "ENG-1 is in Done",
          table: "issues" as const,
          id: "10000",
          fields: { statusId: { equals: "4" } },
        },
      ],
      validate: [{ table: "issues" as const, id: "10000" }],
      budget: 8,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
    };
    const html = episodeHtml({ ...makeTrace({}), expectation });
    expect(html).toContain("Expected end state");
    expect(html).toContain("statusId = &quot;4&quot;");
    expect(episodeHtml(makeTrace({}))).not.toContain("Expected end state");
  });
});
