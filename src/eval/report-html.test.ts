import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureConfig } from "../../test/support/run-fixtures.ts";
import { makeTrace } from "../../test/support/trace-fixtures.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { FAMILY_PALETTE, failureSpec, familyColors, rewardDistributionSpec } from "./charts.ts";
import { toEpisodeRecord } from "./episode-record.ts";
import { buildResults, outcomeOf } from "./metrics.ts";
import { provenanceOf } from "./provenance.ts";
import { runFiles } from "./run-dir.ts";
import { writeReports } from "./write-reports.ts";

const A = "jira-transition-v1";
const B = "jira-subtask-create-v1";
const ids = SCENARIOS.map((s) => s.id);

type ColorScale = { scale: { domain: string[]; range: string[] } };

describe("report.html for many families", () => {
  it("gives every family of the registry its own colour, the same in every chart", () => {
    expect(ids.length).toBeGreaterThanOrEqual(19);
    expect(new Set(FAMILY_PALETTE).size).toBe(FAMILY_PALETTE.length);
    expect(FAMILY_PALETTE.length).toBeGreaterThanOrEqual(20);
    const { scale } = familyColors(ids) as unknown as ColorScale;
    expect(scale.domain).toEqual(ids);
    expect(new Set(scale.range).size).toBe(ids.length);

    const outcomes = ids.map((scenario, index) =>
      outcomeOf(
        toEpisodeRecord(
          makeTrace({ scenario, index, reward: 0, passed: false, violations: ["missing_mutation"] }),
        ),
      ),
    );
    const results = buildResults({ model: "m", rewardMode: "paper", outcomes, k: 1, scenarios: ids });
    const colorOf = (spec: unknown) => (spec as { encoding: { color: ColorScale } }).encoding.color.scale;
    const failures = colorOf(failureSpec(results));
    const rewards = colorOf(rewardDistributionSpec(outcomes, ids));
    expect(failures).toEqual(rewards);
    expect(new Set(failures.range).size).toBe(ids.length);
  });

  it("lists episodes failed first with sortable values, filters them, and shows provenance as a list", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-html-"));
    const traces = [
      makeTrace({ scenario: A, index: 0, sample: 0, reward: 1 }),
      makeTrace({
        scenario: A,
        index: 1,
        sample: 0,
        reward: 0.25,
        passed: false,
        violations: ["wrong_value"],
      }),
      makeTrace({ scenario: B, index: 0, sample: 0, reward: 0.9, passed: true }),
      makeTrace({
        scenario: B,
        index: 1,
        sample: 0,
        reward: 0,
        passed: false,
        calls: 0,
        error: { type: "rate_limited", message: "429", status: 429 },
      }),
      makeTrace({
        scenario: B,
        index: 2,
        sample: 0,
        reward: 0,
        passed: false,
        violations: ["missing_mutation"],
      }),
    ];
    writeFileSync(
      runFiles(dir).episodes,
      traces.map((t) => `${JSON.stringify(toEpisodeRecord(t))}\n`).join(""),
    );
    const config = { ...fixtureConfig([A, B]), k: 1 };
    const provenance = {
      ...provenanceOf(config, new Date("2026-02-03T04:05:06Z")),
      git_commit: "0123456789abcdef0123",
      ended_at: "2026-02-03T04:06:00.000Z",
    };
    await writeReports(dir, config, { scenarios: [A, B], provenance });
    const html = readFileSync(runFiles(dir).reportHtml, "utf8");

    const table = /<table class="episodes" id="episode-list">(.*?)<\/table>/s.exec(html)?.[1] ?? "";
    const rows = [...table.matchAll(/<tr data-passed="(\w+)" data-order="(\d+)">(.*?)<\/tr>/g)];
    // Failed first (report order within), then the unscored provider error, then the passed ones.
    expect(rows.map((r) => /<code>([^<]+)<\/code>/.exec(r[3]!)?.[1])).toEqual([
      `${A}/eval/1`,
      `${B}/eval/2`,
      `${B}/eval/1`,
      `${A}/eval/0`,
      `${B}/eval/0`,
    ]);
    expect(rows.map((r) => r[1])).toEqual(["false", "false", "false", "true", "true"]);
    // Each cell carries the value the page's script sorts by: family, task index, sample, verdict rank, reward, calls.
    const values = (r: RegExpMatchArray) => [...r[3]!.matchAll(/data-v="([^"]*)"/g)].map((m) => m[1]);
    expect(values(rows[0]!)).toEqual([A, "1", "0", "0", "0.25", "1"]);
    expect(values(rows[2]!)).toEqual([B, "1", "0", "1", "-1", "0"]);
    expect(rows[2]![3]).toContain('<td class="n" data-v="-1">—</td>');
    for (const name of ["family", "task", "sample", "verdict", "reward", "calls"])
      expect(table).toContain(`<button type="button" class="sort">${name}</button>`);
    // Each row links to its episode's drill-down.
    expect(table).toContain(`href="#ep~${A}~eval~1~0"`);
    expect(html).toContain(`<details class="episode" id="ep~${A}~eval~1~0"`);
    // The sort and the failed-only filter are the page's own inline script.
    const script = /<script>(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(script).toContain('document.getElementById("episode-list")');
    expect(script).toContain("body.append(...rows)");
    expect(script).toContain('#episode-list tr[data-passed="true"]');

    const dl = /<dl class="provenance">(.*?)<\/dl>/s.exec(html)?.[1] ?? "";
    for (const [term, value] of [
      ["model", config.model],
      ["reward mode", "paper"],
      ["seed", String(config.seed)],
      ["samples per task (k)", "1"],
      ["git commit", "<code>0123456789abcdef0123</code>"],
      ["started", "2026-02-03T04:05:06.000Z"],
      ["ended", "2026-02-03T04:06:00.000Z"],
    ])
      expect(dl).toContain(`<dt>${term}</dt><dd>${value}</dd>`);
    expect(html).toMatch(new RegExp(`<tr><td>${A}</td><td>v1</td><td><code>[0-9a-f]{12}</code></td></tr>`));
  });
});
