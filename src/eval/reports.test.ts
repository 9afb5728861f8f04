import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureConfig } from "../../test/support/run-fixtures.ts";
import { makeRecord, makeTrace } from "../../test/support/trace-fixtures.ts";
import { toEpisodeRecord } from "./episode-record.ts";
import { buildResults, outcomeOf } from "./metrics.ts";
import { drillDownOutcomes } from "./report-html.ts";
import { terminalTable } from "./report-md.ts";
import { runFiles } from "./run-dir.ts";
import { writeReports } from "./write-reports.ts";

const A = "jira-transition-v1";
const B = "jira-subtask-create-v1";
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'quotes'`;

const config = fixtureConfig([A, B]);

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
  const records = traces.map(toEpisodeRecord);
  writeFileSync(runFiles(dir).episodes, records.map((t) => `${JSON.stringify(t)}\n`).join(""));
  return { dir, traces: records };
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
    // Mean and pass rate carry their 95% intervals (one task per scenario: no spread to resample).
    expect(md).toContain(
      `| ${A} | 2 | 2 | 0 | 0.875 [0.88, 0.88] | 0.750 | 1.000 | 0.125 | 1.000 [1.00, 1.00] | 1.000 | 1.0 |`,
    );
    // B's rate-limited episode is not scored: B's figures are those of its one scored episode.
    expect(md).toContain(
      `| ${B} | 2 | 1 | 1 | 0.100 [0.10, 0.10] | 0.100 | 0.100 | 0.000 | 0.000 [0.00, 0.00] | — | 1.0 |`,
    );
    expect(md).toContain("| scenario | episodes | scored | provider errors | mean [95% CI] |");
    expect(md).toContain("provider errors: rate_limited ×1 — not scored");
    // The cause: the last provider error's kind, status, retries, episode and text.
    expect(md).toContain(
      `- last: rate_limited (HTTP 429) after 0 retries, on ${B}/eval/0 sample 1: 429 <slow down>`,
    );
    expect(results.last_provider_error).toEqual({
      task_id: `${B}/eval/0`,
      sample: 1,
      type: "rate_limited",
      message: "429 <slow down>",
      status: 429,
      retries: 0,
    });
    expect(results.provider_error_types).toEqual({ rate_limited: 1 });
    // The terminal summary: the kinds with their counts, the cause, and both figures with their intervals.
    const terminal = terminalTable(results, 2);
    expect(terminal).toContain("1 of 4 episodes ended in a provider error (rate_limited ×1): not scored");
    expect(terminal).toContain(
      `  last: rate_limited (HTTP 429) after 0 retries, on ${B}/eval/0 sample 1: 429 <slow down>`,
    );
    expect(terminal).toMatch(
      new RegExp(`${B} +2 +1 +1 +0\\.100 \\[0\\.10, 0\\.10\\] .* 0\\.000 \\[0\\.00, 0\\.00\\]`),
    );

    const html = readFileSync(files.reportHtml, "utf8");
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).toContain("1 episode ended in a provider error");
    expect(html).toContain("Pass rate per scenario");
    expect(html).toContain("whiskers: 95% bootstrap interval");
    expect(html).toContain("<th><span>dropped_required_field</span></th>");
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
    expect(html).toContain("last: rate_limited (HTTP 429) after 0 retries");
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
    writeFileSync(runFiles(dir).episodes, `${JSON.stringify(toEpisodeRecord(trace))}\n`);
    await writeReports(dir, { ...config, scenarios: [A] }, { scenarios: [A] });
    const html = readFileSync(runFiles(dir).reportHtml, "utf8");
    expect(html).toContain("&lt;think&gt;hmm&lt;/think&gt;&lt;tool_call&gt;");
    expect(html).toContain("parse problems: trailing &lt;text&gt; ignored");
  });

  it("drills into failed episodes first when a run is larger than the cap", () => {
    const outcomes = [
      makeRecord({ index: 0, reward: 1 }),
      makeRecord({ index: 1, reward: 0, passed: false }),
      makeRecord({ index: 2, reward: 1 }),
      makeRecord({ index: 3, reward: 0.2, passed: false }),
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
    expect(table).toMatch(
      /scenario\s+episodes\s+scored\s+provider errors\s+mean \[95% CI\]\s+min\s+max\s+std\s+pass \[95% CI\]\s+pass\^2\s+calls/,
    );
    expect(table).toMatch(new RegExp(`${A}\\s+2\\s+2\\s+0\\s+0\\.875 \\[0\\.88, 0\\.88\\]`));
    expect(table).toContain(`${B}: hallucinated_tool ×1, provider_error ×1`);
    // (1 + 0.75 + 0.1) / 3: the provider error is not a zero.
    expect(table).toMatch(/overall\s+4\s+3\s+1\s+0\.617 \[0\.62, 0\.62\]/);
    expect(table).toContain("1 of 4 episodes ended in a provider error");
    expect(table).toContain(
      `  last: rate_limited (HTTP 429) after 0 retries, on ${B}/eval/0 sample 1: 429 <slow down>`,
    );
  });

  it("shows the task's expectation and end-state diff beside the trace when the record has them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-"));
    const record = {
      ...makeRecord({ scenario: A }),
      expectation: { updates: [{ ref: "ENG-1", fields: { status: { equals: "In <Progress>" } } }] },
      end_state_diff: [{ entity: "issue", key: "ENG-1", field: "status", before: "To Do", after: "Done" }],
    };
    writeFileSync(runFiles(dir).episodes, `${JSON.stringify(record)}\n`);
    await writeReports(dir, { ...config, scenarios: [A] }, { scenarios: [A] });
    const html = readFileSync(runFiles(dir).reportHtml, "utf8");
    expect(html).toContain('<aside class="task-data"><h4>expectation</h4>');
    expect(html).toContain("In &lt;Progress&gt;");
    expect(html).toContain("<h4>end state diff</h4>");
    expect(html).toContain("&quot;after&quot;: &quot;Done&quot;");
  });
});
