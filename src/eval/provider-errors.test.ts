/**
 * Provider failures are never model failures: evaluate() against the fake OpenAI-compatible server
 * when it is down (dead port), serves another model, fails every request, or fails some. Errored
 * episodes are unscored and counted apart, retries are recorded per turn, and a resumed run reruns
 * exactly the errored episodes. Also: the provenance written into run.json and results.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadPort } from "../../test/support/dead-port.ts";
import {
  type Behaviour,
  type FakeServer,
  scriptedBehaviour,
  startFakeOpenAIServer,
} from "../../test/support/fake-openai-server.ts";
import { createPolicy } from "../agent/providers/index.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { VERSION } from "../version.ts";
import { readEpisodeLog } from "./episode-log.ts";
import { evaluate } from "./evaluate.ts";
import type { EvalResults } from "./metrics.ts";
import { runFiles } from "./run-dir.ts";

const SCENARIOS = ["jira-transition-v1", "jira-subtask-create-v1"];
const entries = SCENARIOS.flatMap((id) => {
  const scenario = findScenario(id);
  return tasksFor(scenario, "eval", 2).map((task) => ({ scenario, task }));
});
const competent = scriptedBehaviour("reference", entries);
const tempDir = () => join(mkdtempSync(join(tmpdir(), "atlas-provider-")), "run");
const noSleep = async () => {};

function config(model: string, retries: number) {
  return {
    model,
    scenarios: SCENARIOS,
    split: "eval" as const,
    n: 2,
    k: 2,
    concurrency: 2,
    seed: 0,
    reward: "paper" as const,
    maxTurns: 30,
    provider: { retries },
  };
}

const results = (dir: string) => JSON.parse(readFileSync(runFiles(dir).results, "utf8")) as EvalResults;

describe("provider failures", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer(competent);
  });
  afterAll(() => server.close());

  it("stops before any episode when the server is down, writing nothing", async () => {
    const dir = tempDir();
    const model = `openai:http://127.0.0.1:${await deadPort()}/v1#m`;
    await expect(evaluate({ dir, config: config(model, 0) })).rejects.toThrow(
      /^model server http:\/\/127\.0\.0\.1:\d+\/v1 is unreachable \(ECONNREFUSED\); no episode was run$/,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it("stops before any episode when the server does not serve the model", async () => {
    const dir = tempDir();
    const before = server.requests.length;
    await expect(
      evaluate({ dir, config: config(`openai:${server.baseURL}#other-model`, 0) }),
    ).rejects.toThrow(/does not serve model 'other-model' \(it serves: fake-model\)/);
    await expect(evaluate({ dir, config: config(`raw:${server.baseURL}#other-model`, 0) })).rejects.toThrow(
      /does not serve model 'other-model'/,
    );
    expect(server.requests.length).toBe(before);
    expect(existsSync(dir)).toBe(false);
  });

  it("asks a one-token request instead when the server does not list its models", async () => {
    const bare = await startFakeOpenAIServer((r) => {
      if (r.body.model !== "served") return { status: 404, body: { error: { message: "model not found" } } };
      return r.body.max_tokens === 1 ? { message: { content: "p" } } : competent(r);
    }, null);
    try {
      const dir = tempDir();
      await expect(evaluate({ dir, config: config(`openai:${bare.baseURL}#other`, 0) })).rejects.toThrow(
        /does not serve model 'other' \(HTTP 404: 404 model not found\); no episode was run$/,
      );
      expect(existsSync(dir)).toBe(false);
      const ok = await evaluate({ dir, config: { ...config(`openai:${bare.baseURL}#served`, 0), k: 1 } });
      expect(ok.results!.overall).toMatchObject({ episodes: 4, provider_errors: 0, mean_reward: 1 });
      expect(bare.requests[0]!.body).toMatchObject({ model: "other", max_tokens: 1 });
    } finally {
      await bare.close();
    }
  });

  it("records the retries of each turn on the episode", async () => {
    // Every other request fails once with a 503; one retry gets it through.
    let n = 0;
    server.setBehaviour((r) => (n++ % 2 === 0 ? { status: 503 } : competent(r)));
    const dir = tempDir();
    const model = `openai:${server.baseURL}#fake-model`;
    const policy = createPolicy(model, { retries: 1, sleep: noSleep });
    await evaluate({ dir, config: { ...config(model, 1), concurrency: 1 }, policy });
    const episodes = readEpisodeLog(runFiles(dir).episodes).episodes;
    expect(episodes.every((e) => e.turns.every((t) => t.retries === 1))).toBe(true);
    expect(episodes.every((e) => e.retries === e.turns.length)).toBe(true);
    expect(results(dir).overall).toMatchObject({ episodes_scored: 8, provider_errors: 0, mean_reward: 1 });
  });

  it("a flaky server: errored episodes are unscored, counted apart, and rerun by --resume", async () => {
    // Requests 3, 10, 17, ... fail with a 503 and there are no retries.
    let n = 0;
    const flaky: Behaviour = (r) => (n++ % 7 === 3 ? { status: 503 } : competent(r));
    server.setBehaviour(flaky);
    const dir = tempDir();
    const model = `openai:${server.baseURL}#fake-model`;
    const first = await evaluate({ dir, config: { ...config(model, 0), concurrency: 1 } });
    const overall = first.results!.overall;
    expect(overall.provider_errors).toBeGreaterThan(0);
    expect(overall.episodes_scored + overall.provider_errors).toBe(8);
    // The model solved every episode the server let it finish.
    expect(overall).toMatchObject({ mean_reward: 1, pass_rate: 1 });
    expect(overall.failures.provider_error).toBe(overall.provider_errors);
    const errored = readEpisodeLog(runFiles(dir).episodes).providerErrors;
    expect(errored.size).toBe(overall.provider_errors);

    server.setBehaviour(competent);
    const before = server.requests.length;
    const second = await evaluate({ dir, config: { ...config(model, 0), concurrency: 1 }, resume: true });
    expect(second).toMatchObject({ ran: errored.size, skipped: 8 - errored.size });
    expect(server.requests.length).toBeGreaterThan(before);
    const log = readEpisodeLog(runFiles(dir).episodes);
    expect(log.providerErrors.size).toBe(0);
    expect(log.episodes).toHaveLength(8);
    expect(results(dir).overall).toMatchObject({ episodes: 8, episodes_scored: 8, provider_errors: 0 });
  });

  it("writes the run's provenance into run.json and results.json", async () => {
    server.setBehaviour(competent);
    const dir = tempDir();
    const times = [new Date("2026-01-02T03:04:05.000Z"), new Date("2026-01-02T03:09:00.000Z")];
    const model = `openai:${server.baseURL}#fake-model`;
    await evaluate({
      dir,
      config: { ...config(model, 2), provider: { retries: 2, temperature: 0.7, topP: 0.9 } },
      now: () => times.shift()!,
    });
    const head = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const expected = {
      atlas_gym_version: VERSION,
      started_at: "2026-01-02T03:04:05.000Z",
      ended_at: "2026-01-02T03:09:00.000Z",
      model,
      provider: { retries: 2, temperature: 0.7, top_p: 0.9 },
      tools: "default",
      split: "eval",
      n: 2,
      k: 2,
      seed: 0,
      reward_mode: "paper",
      max_turns: 30,
    };
    const runJson = JSON.parse(readFileSync(runFiles(dir).config, "utf8"));
    const { provenance } = results(dir);
    for (const p of [runJson, provenance]) {
      expect(p).toMatchObject(expected);
      expect(p.git_commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
      for (const id of SCENARIOS) {
        const frozen = JSON.parse(
          readFileSync(new URL(`../scenarios/eval-data/${id}.json`, import.meta.url), "utf8"),
        );
        expect(p.scenarios[id]).toEqual({ version: "v1", eval_split_sha256: frozen.sha256 });
      }
    }
    expect(Object.keys(runJson).every((key) => !/[A-Z]/.test(key))).toBe(true);
  });
});
