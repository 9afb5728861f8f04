/**
 * report.html in a real browser: an eval run (scripted policies: sample 0 solves the task, sample 1
 * calls a tool that does not exist) is rendered in the packaged headless Chromium (@sparticuz/chromium, driven by playwright-core). The
 * page must load with no console errors, exceptions or error log entries, fetch nothing but itself,
 * show its charts, sort its episode list and open an episode from it, expand its drill-down and filter
 * it to failed episodes from its own script, and produce a non-trivial screenshot. A
 * page with a console error and a network request then shows that these checks do catch problems.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createScriptedPolicy } from "../src/agent/scripted/policy-adapter.ts";
import type { TaskPolicy } from "../src/agent/types.ts";
import { evaluate } from "../src/eval/evaluate.ts";
import { runFiles } from "../src/eval/run-dir.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { launchChromium } from "./support/headless-chromium.ts";
import { packagedChromium } from "./support/packaged-chromium.ts";
import { writeRun } from "./support/run-fixtures.ts";
import { workflowRun } from "./support/workflow-fixtures.ts";

/** Sample 0 plays the reference solution, sample 1 hallucinates a tool. */
function mixedPolicy(): TaskPolicy {
  const reference = createScriptedPolicy("reference");
  const hallucinate = createScriptedPolicy("hallucinate");
  return {
    name: "policy:mixed",
    readsTask: true,
    next: (messages, tools, ctx) => (ctx.sample === 1 ? hallucinate : reference).next(messages, tools, ctx),
  };
}

describe("report.html in headless Chromium", () => {
  it("renders without console errors or requests, and screenshots non-trivially", async () => {
    const chromium = packagedChromium();
    if ("missing" in chromium) throw new Error(chromium.missing);

    const dir = mkdtempSync(join(tmpdir(), "atlas-report-html-"));
    await evaluate({
      dir,
      policy: mixedPolicy(),
      config: {
        model: "policy:mixed",
        scenarios: ["jira-transition-v1", "jira-subtask-create-v1"],
        split: "eval",
        n: 2,
        k: 2,
        concurrency: 2,
        seed: 0,
        reward: "paper",
        maxTurns: 30,
      },
    });
    const report = runFiles(dir).reportHtml;

    const browser = await launchChromium(chromium);
    try {
      await browser.open(pathToFileURL(report).href);
      expect(await browser.evaluate<number>("document.querySelectorAll('figure svg').length")).toBe(4);
      // The failure table fits the page: no column runs past the body's width.
      expect(
        await browser.evaluate<boolean>(
          "(() => { const t = document.querySelector('table.failures'); return t.getBoundingClientRect().right <= document.body.getBoundingClientRect().right + 0.5 && t.scrollWidth <= t.clientWidth + 1; })()",
        ),
      ).toBe(true);
      const episodes = await browser.evaluate<number>("document.querySelectorAll('details.episode').length");
      expect(episodes).toBe(8);
      // The episode list: failed first; a header click sorts by that column, a second click reverses.
      const column = (i: number) =>
        browser.evaluate<string[]>(
          `[...document.querySelectorAll('#episode-list tbody tr')].filter(r => !r.hidden).map(r => r.cells[${i}].dataset.v)`,
        );
      expect(await column(3)).toEqual(["0", "0", "0", "0", "2", "2", "2", "2"]);
      const page = browser.page();
      await page.click("#episode-list th[data-col='4'] button");
      const ascending = (await column(4)).map(Number);
      expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
      expect(ascending[0]).toBeLessThan(ascending[7]!);
      expect(
        await browser.evaluate(
          "document.querySelector('#episode-list th[data-col=\"4\"]').getAttribute('aria-sort')",
        ),
      ).toBe("ascending");
      await page.click("#episode-list th[data-col='4'] button");
      expect((await column(4)).map(Number)).toEqual([...ascending].reverse());
      await page.click("#episode-list th[data-col='0'] button");
      const families = await column(0);
      expect(families).toEqual([...families].sort());
      // A task in the list opens its drill-down.
      const target = await browser.evaluate<string>(
        "document.querySelector('#episode-list tbody a').hash.slice(1)",
      );
      await page.click("#episode-list tbody a");
      // The hash change that opens it is an event: wait for it (it fails the test if it never comes).
      await page.waitForFunction(`document.getElementById(${JSON.stringify(target)}).open`, null, {
        timeout: 5000,
      });
      await browser.evaluate("document.getElementById('expand').click()");
      expect(
        await browser.evaluate<number>("document.querySelectorAll('details.episode[open]').length"),
      ).toBe(episodes);
      await browser.evaluate("document.getElementById('failed').click()");
      expect(
        await browser.evaluate<number>(
          "[...document.querySelectorAll('details.episode')].filter(d => !d.hidden).length",
        ),
      ).toBe(4);
      expect(await column(3)).toEqual(["0", "0", "0", "0"]);
      const png = await browser.screenshot();
      const shot = join(dir, "report.png");
      writeFileSync(shot, png);
      expect(existsSync(shot)).toBe(true);
      expect(png.subarray(1, 4).toString()).toBe("PNG");
      expect(statSync(shot).size).toBeGreaterThan(20_000);
      // The page is taller than the viewport once expanded: the whole page was captured.
      expect(png.readUInt32BE(20)).toBeGreaterThan(1000);

      expect(browser.problems.consoleErrors).toEqual([]);
      expect(browser.problems.exceptions).toEqual([]);
      expect(browser.problems.logErrors).toEqual([]);
      expect(
        browser.problems.requests.every((url) => url.startsWith("file:") || url.startsWith("data:")),
      ).toBe(true);
      expect(browser.problems.requests).toHaveLength(1);

      // The checks can fail: a page that logs an error and fetches from the network is caught.
      await browser.open(
        "data:text/html,<script>console.error('boom')</script><img src='http://example.invalid/x.png'>",
      );
      expect(browser.problems.consoleErrors.join()).toContain("boom");
      expect(browser.problems.requests).toContain("http://example.invalid/x.png");
    } finally {
      await browser.close();
    }
  });

  it("renders a workflow run's horizon section (table, chart, step tables) without console errors", async () => {
    const chromium = packagedChromium();
    if ("missing" in chromium) throw new Error(chromium.missing);
    const { dir } = await writeRun(workflowRun());
    const browser = await launchChromium(chromium);
    try {
      await browser.open(pathToFileURL(runFiles(dir).reportHtml).href);
      expect(await browser.evaluate<number>("document.querySelectorAll('figure svg').length")).toBe(5);
      // Horizons 1-3 in the table, a step table for each workflow horizon, and the chart's bars drawn.
      expect(
        await browser.evaluate<string[]>(
          "[...document.querySelectorAll('h2')].filter(h => h.textContent === 'Horizons').map(h => h.nextElementSibling.querySelectorAll('tr').length + '')",
        ),
      ).toEqual(["4"]);
      expect(
        await browser.evaluate<number>(
          "[...document.querySelectorAll('h3')].filter(h => / first failed step$/.test(h.textContent)).length",
        ),
      ).toBe(2);
      // Bars: horizon 1 has pass and mean (no progress); horizons 2 and 3 all three (3's pass rate is 0 high).
      expect(
        await browser.evaluate<number>(
          "[...document.querySelectorAll('figure svg')].find(s => s.textContent.includes('Per horizon')).querySelectorAll('.mark-rect path').length",
        ),
      ).toBe(8);
      expect(browser.problems.consoleErrors).toEqual([]);
      expect(browser.problems.exceptions).toEqual([]);
      expect(
        browser.problems.requests.every((url) => url.startsWith("file:") || url.startsWith("data:")),
      ).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it("keeps a run of every family readable: one colour each, whole labels, hover titles, nothing wider than the page", async () => {
    const chromium = packagedChromium();
    if ("missing" in chromium) throw new Error(chromium.missing);
    const ids = SCENARIOS.map((s) => s.id);
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-families-"));
    await evaluate({
      dir,
      policy: mixedPolicy(),
      config: {
        model: "policy:mixed",
        scenarios: ids,
        split: "eval",
        n: 1,
        k: 2,
        concurrency: 4,
        seed: 0,
        reward: "paper",
        maxTurns: 60,
      },
    });
    const browser = await launchChromium(chromium);
    try {
      await browser.open(pathToFileURL(runFiles(dir).reportHtml).href);
      await browser.page().setViewportSize({ width: 1280, height: 900 });
      // Nothing runs past the page: the charts and the failure table fit a 1280 px window.
      expect(await browser.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
        1280,
      );
      // Every family's name is whole on the axes and in the legends (Vega cuts long labels with "…").
      const texts = await browser.evaluate<string[]>(
        "[...document.querySelectorAll('figure svg text')].map(t => t.textContent)",
      );
      expect(texts.filter((t) => t.includes("…"))).toEqual([]);
      for (const id of ids) expect(texts).toContain(id);
      // The stacked charts: one fill per family, and each bar names its family when pointed at.
      const fills = await browser.evaluate<Record<string, string[]>>(
        `(() => { const out = {}; for (const p of document.querySelectorAll('figure svg path[aria-roledescription="bar"]')) { const m = / scenario: ([^;]+)$/.exec(p.getAttribute('aria-label')); if (!m) continue; (out[m[1]] ??= []).includes(p.getAttribute('fill')) || out[m[1]].push(p.getAttribute('fill')); if (p.querySelector('title')?.textContent !== p.getAttribute('aria-label')) out.untitled = ['x']; } return out; })()`,
      );
      expect(Object.keys(fills).sort()).toEqual([...ids].sort());
      expect(Object.values(fills).every((f) => f.length === 1)).toBe(true);
      expect(new Set(Object.values(fills).flat()).size).toBe(ids.length);
      // The failure table's headers are whole codes, each on one line.
      const headers = await browser.evaluate<number[]>(
        "[...document.querySelectorAll('table.failures th span')].map(s => s.getClientRects().length)",
      );
      expect(headers).toHaveLength(15);
      expect(headers.every((n) => n === 1)).toBe(true);
      expect(browser.problems.consoleErrors).toEqual([]);
      expect(browser.problems.exceptions).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
