/**
 * `atlas-gym view` in a real browser (the packaged headless Chromium, driven by playwright-core), one
 * browser for every page: open a run, filter it, open a failed episode and find its mismatches, compare
 * two runs and open a flipped task, play a task to 1.0 through the generated forms (adding a list item
 * with the page's script), and watch a live env-server session receive a call. Each page is
 * screenshotted into a temp folder, or into $VIEW_SCREENSHOTS_DIR when set: `scripts/view-screenshots.sh`
 * sets it to docs/images to refresh the view-*.png that docs/view.md shows, so a test run never rewrites
 * them. Every page must load with no console error or exception and fetch nothing but the view itself.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGymServer } from "../src/server/start-gym-server.ts";
import { startViewServer } from "../src/view/start-view-server.ts";
import { type Browser, launchChromium } from "./support/headless-chromium.ts";
import { packagedChromium } from "./support/packaged-chromium.ts";
import { writeViewRuns } from "./support/view-runs.ts";

let images: string;
let root: string;
const TOKEN = "view-test-token";

let browser: Browser;
let view: Awaited<ReturnType<typeof startViewServer>>;
let gym: Awaited<ReturnType<typeof startGymServer>>;

async function shot(name: string) {
  const png = await browser.screenshot(4000);
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(png.length).toBeGreaterThan(10_000);
  writeFileSync(join(images, `view-${name}.png`), png);
}

beforeAll(async () => {
  const chromium = packagedChromium();
  if ("missing" in chromium) throw new Error(chromium.missing);
  root = mkdtempSync(join(tmpdir(), "atlas-view-browser-"));
  images = process.env.VIEW_SCREENSHOTS_DIR ?? join(root, "images");
  await writeViewRuns(join(root, "runs"));
  gym = await startGymServer({ port: 0, seed: 1, token: TOKEN });
  view = await startViewServer({
    roots: [join(root, "runs")],
    playOut: join(root, "play"),
    port: 0,
    env: gym.url,
    envToken: TOKEN,
    now: () => new Date("2026-02-03T04:05:06Z"),
  });
  mkdirSync(images, { recursive: true });
  browser = await launchChromium(chromium);
});

afterAll(async () => {
  await browser?.close();
  await view?.close();
  await gym?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("atlas-gym view in headless Chromium", () => {
  it("reads, filters, compares, plays and watches, with keyboard access and nothing fetched from elsewhere", async () => {
    await browser.open(`${view.url}/`);
    const page = browser.page();
    await page.keyboard.press("Tab");
    expect(await browser.evaluate<string>("document.activeElement.className")).toBe("skip");
    expect(await page.locator("main table tbody tr").count()).toBe(2);
    await shot("runs");

    // A run, filtered to its failed episodes.
    await page.click('a[href="/runs/run-b"]');
    await page.selectOption('select[name="verdict"]', "failed");
    await page.click('form.filters button[type="submit"]');
    await page.waitForURL(/verdict=failed/);
    expect(await page.textContent("#matched")).toContain("2 of 6 episodes match");
    await shot("run");

    // A failed episode: its mismatches are marked beside the expectation.
    await page.click('a[href="/runs/run-b/episodes/jira-create-issue-v1~eval~1~0"]');
    // count() does not wait: wait for the episode page itself before counting its rows.
    await page.waitForSelector("table.expectation");
    expect(await page.locator("table.expectation tr.mismatch").count()).toBeGreaterThan(0);
    expect(await page.locator("table.expectation tr.match").count()).toBe(0);
    expect(await page.textContent("main")).toContain("dropped_required_field");
    await shot("episode");

    // Compare: the flipped tasks, one opened side by side.
    await page.goto(`${view.url}/compare?a=run-a&b=run-b`);
    expect(await page.textContent("#flipped")).toContain("Flipped episodes (2)");
    await page.click("text=jira-transition-v1/eval/1 #0");
    await page.waitForSelector(".split > section");
    expect(await page.locator(".split > section").count()).toBe(2);
    expect(await page.locator("b.reward").allTextContents()).toEqual(["1.000", "0.000"]);
    await page.goto(`${view.url}/compare?a=run-a&b=run-b`);
    await shot("compare");

    // Play a task to 1.0 through the generated forms.
    await page.goto(`${view.url}/play`);
    await page.selectOption('select[name="scenario"]', "jira-transition-v1");
    await page.click('button:has-text("Start")');
    await page.waitForURL(/\/play\/play-1/);
    const callTool = async (tool: string, fields: Record<string, string>, addItem = false) => {
      await page.click(`details.tool:has(form[data-tool="${tool}"]) > summary`);
      const form = page.locator(`form[data-tool="${tool}"]`);
      if (addItem) {
        await form.locator("button.add-item").first().click();
        expect(await form.locator('[name="arg.fields.2"]').count()).toBe(1);
      }
      for (const [id, value] of Object.entries(fields)) await page.fill(`#f-${tool}-${id}`, value);
      await form.locator('button[type="submit"]').click();
      await page.waitForLoadState("load");
    };
    await callTool("jira_search_issues", {
      jql: 'project = ENG AND summary ~ "Migrate CI caches to the new build cluster"',
      fields_0: "summary",
    });
    await callTool("jira_get_transitions", { issueIdOrKey: "ENG-9" });
    await callTool("jira_transition_issue", { issueIdOrKey: "ENG-9", transition_id: "11" });
    await callTool("jira_get_issue", { issueIdOrKey: "ENG-9", fields_2: "status" }, true);
    expect(await page.locator(".call.failed").count()).toBe(0);
    await page.fill('textarea[name="final"]', "ENG-9 is now in To Do.");
    await page.click('button:has-text("Give the final answer")');
    await page.waitForSelector("#score");
    expect(await page.textContent("b.reward")).toBe("1.000");
    expect(await page.locator("table.expectation tr.match").count()).toBe(1);
    await shot("play");

    // Live: a session on the env server receives a call while the page watches it.
    const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const opened = (await (
      await fetch(`${gym.url}/v1/sessions`, {
        method: "POST",
        headers,
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      })
    ).json()) as { session_id: string };
    await page.goto(`${view.url}/live`);
    await page.click(`a[href="/live/${opened.session_id}"]`);
    await page.waitForSelector("#live-calls", { state: "attached" });
    expect(await page.locator("#live-calls .call").count()).toBe(0);
    await fetch(`${gym.url}/v1/sessions/${opened.session_id}/tools/jira_get_transitions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ arguments: { issueIdOrKey: "ENG-9" } }),
    });
    await page.waitForSelector("#live-calls .call", { timeout: 15_000 });
    expect(await page.textContent("#live-calls")).toContain("jira_get_transitions");
    await shot("live");

    expect(browser.problems.consoleErrors).toEqual([]);
    expect(browser.problems.exceptions).toEqual([]);
    expect(browser.problems.logErrors).toEqual([]);
    expect(browser.problems.requests.length).toBeGreaterThan(10);
    expect(browser.problems.requests.filter((url) => !url.startsWith(view.url))).toEqual([]);
  });
});
