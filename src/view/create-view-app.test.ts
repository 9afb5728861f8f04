/**
 * The view app in process (app.request, no socket) over two real eval runs: lists, filters, one failed
 * episode with its mismatches and site diff, compare with flipped tasks, bad input (unknown ids, a
 * half-written run, a broken log), runs added while it runs, the token, and Play through the form
 * fields to a score of 1.0 saved as a run that `compare`'s reader accepts.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeViewRuns } from "../../test/support/view-runs.ts";
import { loadRun } from "../eval/compare.ts";
import { createViewApp } from "./create-view-app.ts";

let root: string;
let dirs: { a: string; b: string };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "atlas-view-"));
  dirs = await writeViewRuns(join(root, "runs"));
});

const text = async (res: Response) => res.text();

function form(fields: Record<string, string>): RequestInit {
  return { method: "POST", body: new URLSearchParams(fields) };
}

describe("atlas-gym view app", () => {
  it("lists runs with provenance and figures, and filters and searches a run's episodes", async () => {
    const { app } = createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play") });
    const home = await text(await app.request("/"));
    expect(home).toContain('href="/runs/run-a"');
    expect(home).toContain("policy:odd-fail");
    expect(home).toContain("2026-01-02 03:04:05");
    expect(home).toMatch(/1\.000 <span class="muted">\[1\.000, 1\.000\]<\/span>/);
    const run = await text(await app.request("/runs/run-b"));
    expect(run).toContain("Per family");
    expect(run).toContain("all families · level 1");
    expect(run).toMatch(/jira-transition-v1 · level 1<\/td><td class="n">0\.667/);
    expect(run).toContain("6 of 6 episodes match");
    expect(await text(await app.request("/runs/run-b?verdict=failed"))).toContain("2 of 6 episodes match");
    expect(await text(await app.request("/runs/run-b?verdict=failed&family=jira-transition-v1"))).toContain(
      "1 of 6 episodes match",
    );
    expect(await text(await app.request("/runs/run-b?violation=dropped_required_field"))).toContain(
      "2 of 6 episodes match",
    );
    expect(await text(await app.request("/runs/run-b?q=NO-SUCH-PROMPT-TEXT"))).toContain(
      "0 of 6 episodes match",
    );
  });

  it("shows a failed episode's mismatches beside the expectation, its score and the site diff", async () => {
    const { app } = createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play") });
    const failed = await text(await app.request("/runs/run-b/episodes/jira-create-issue-v1~eval~1~0"));
    expect(failed).toContain('<tr class="mismatch">');
    expect(failed).toContain("✗ mismatch");
    expect(failed).toContain("the replay scores 0.000, as logged");
    expect(failed).toContain("dropped_required_field");
    expect(failed).toContain("The site is unchanged.");
    const passed = await text(await app.request("/runs/run-b/episodes/jira-transition-v1~eval~0~0"));
    expect(passed).toContain('<tr class="match">');
    expect(passed).not.toContain('<tr class="mismatch">');
    expect(passed).toMatch(/Site diff \(1 record\)/);
    expect(passed).toContain("call 3 <code>jira_transition_issue</code>");
  });

  it("compares two runs and lists the flipped tasks, each opening both episodes", async () => {
    const { app } = createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play") });
    const page = await text(await app.request("/compare?a=run-a&b=run-b"));
    expect(page).toContain("Flipped episodes (2)");
    expect(page).toContain("passed → failed");
    expect(page).toContain("Δ mean [95% CI]");
    const both = await text(
      await app.request("/compare/episode?a=run-a&b=run-b&id=jira-transition-v1~eval~1~0"),
    );
    expect(both.match(/class="reward"/g)).toHaveLength(2);
  });

  it("answers unknown ids, a half-written run and a broken log with a message, never a crash", async () => {
    const runs = join(root, "bad");
    mkdirSync(join(runs, "half"), { recursive: true });
    mkdirSync(join(runs, "broken"), { recursive: true });
    const lines = readFileSync(join(dirs.a, "episodes.jsonl"), "utf8").split("\n");
    writeFileSync(join(runs, "half", "episodes.jsonl"), `${lines[0]}\n${lines[1]!.slice(0, 40)}`);
    writeFileSync(join(runs, "broken", "episodes.jsonl"), `${lines[0]}\nnot json\n${lines[1]}\n`);
    writeFileSync(join(runs, "broken", "results.json"), "{");
    const { app } = createViewApp({ roots: [runs], playOut: join(root, "play-bad") });
    const unknownRun = await app.request("/runs/nope");
    expect(unknownRun.status).toBe(404);
    expect(await text(unknownRun)).toContain("No run nope");
    const unknownEpisode = await app.request("/runs/half/episodes/zzz");
    expect(unknownEpisode.status).toBe(404);
    expect(await text(unknownEpisode)).toContain("has no episode zzz");
    const half = await text(await app.request("/runs/half"));
    expect(half).toContain("run.json is missing");
    expect(half).toContain("is cut short");
    expect(half).toContain("1 of 1 episodes match");
    const broken = await app.request("/runs/broken");
    expect(broken.status).toBe(200);
    expect(await text(broken)).toContain("line 2: not a JSON episode");
    expect((await app.request("/compare?a=half&b=nope")).status).toBe(404);
  });

  it("shows runs added while it is open", async () => {
    const watched = join(root, "growing");
    mkdirSync(watched, { recursive: true });
    const { app } = createViewApp({ roots: [watched], playOut: join(root, "play-growing") });
    expect(await text(await app.request("/"))).toContain("No eval runs found yet");
    cpSync(dirs.a, join(watched, "late"), { recursive: true });
    expect(await text(await app.request("/"))).toContain('href="/runs/late"');
  });

  it("requires its token: header, or ?token= once, which sets a cookie", async () => {
    const { app } = createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play"), token: "t0k" });
    expect((await app.request("/")).status).toBe(401);
    expect((await app.request("/?token=wrong")).status).toBe(401);
    expect((await app.request("/", { headers: { authorization: "Bearer t0k" } })).status).toBe(200);
    const login = await app.request("/runs/run-a?token=t0k");
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/runs/run-a");
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    expect((await app.request("/runs/run-a", { headers: { cookie } })).status).toBe(200);
  });

  it("plays a task through the form fields to a score of 1.0 and saves it as a run", async () => {
    const playOut = join(root, "played");
    const { app } = createViewApp({ roots: [], playOut, now: () => new Date("2026-02-03T04:05:06Z") });
    const start = await app.request(
      "/play",
      form({ scenario: "jira-transition-v1", split: "eval", index: "0", tools: "default", reward: "paper" }),
    );
    expect(start.status).toBe(303);
    const at = start.headers.get("location")!;
    const call = (fields: Record<string, string>) => app.request(`${at}/call`, form(fields));
    expect((await app.request("/play", form({ scenario: "x", split: "dev", index: "-1" }))).status).toBe(400);
    // A task index as the env server takes one: digits, within 2^53.
    for (const index of ["1e300", "0x10", "", "9007199254740993", "1.5"]) {
      const refused = await app.request(
        "/play",
        form({ scenario: "jira-transition-v1", split: "train", index }),
      );
      expect(refused.status, index).toBe(400);
      expect(await text(refused)).toContain("task index must be a non-negative integer");
    }
    const bad = await call({ tool: "jira_search_issues", "arg.maxResults": "many" });
    expect(bad.status).toBe(400);
    expect(await text(bad)).toContain("maxResults: &#39;many&#39; is not an integer");
    await call({
      tool: "jira_search_issues",
      "arg.jql": 'project = ENG AND summary ~ "Migrate CI caches to the new build cluster"',
      "arg.fields.0": "summary",
    });
    await call({ tool: "jira_get_transitions", "arg.issueIdOrKey": "ENG-9" });
    await call({ tool: "jira_transition_issue", raw: '{"issueIdOrKey":"ENG-9","transition":{"id":"11"}}' });
    await call({ tool: "jira_get_issue", "arg.issueIdOrKey": "ENG-9", "arg.fields.0": "status" });
    expect((await app.request(`${at}/final`, form({ final: "ENG-9 is in To Do." }))).status).toBe(303);
    const ended = await text(await app.request(at));
    expect(ended).toContain('reward <b class="reward">1.000</b>');
    expect(ended).toContain("✓ match");
    const saved = await app.request(`${at}/save`, { method: "POST" });
    expect(saved.status).toBe(303);
    const runUrl = saved.headers.get("location")!;
    expect(runUrl).toBe("/runs/play-jira-transition-v1-eval-0-1");
    expect(await text(await app.request(runUrl))).toContain("human:play");
    const loaded = loadRun(join(playOut, "play-jira-transition-v1-eval-0-1"));
    expect(loaded.tasks.get("jira-transition-v1")?.get("jira-transition-v1/eval/0")).toMatchObject({
      n: 1,
      rewardSum: 1,
      passes: 1,
    });
  });
});
