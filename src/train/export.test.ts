import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { findScenario } from "../scenarios/index.ts";
import { createGymHandler } from "../server/start-gym-server.ts";
import {
  exportRows,
  verlRecord,
  writeTrlJsonl,
  writeVerlAgentLoopConfig,
  writeVerlParquet,
} from "./export.ts";

const scenarios = [findScenario("jira-transition-v1"), findScenario("jira-subtask-create-v1")];
const dir = mkdtempSync(join(tmpdir(), "atlas-export-"));

describe("dataset export", () => {
  it("interleaves scenarios and numbers tasks from start", () => {
    const rows = exportRows({ scenarios, split: "train", n: 3, start: 5 });
    expect(rows.map((r) => r.task_id)).toEqual([
      "jira-transition-v1/train/5",
      "jira-subtask-create-v1/train/5",
      "jira-transition-v1/train/6",
      "jira-subtask-create-v1/train/6",
      "jira-transition-v1/train/7",
      "jira-subtask-create-v1/train/7",
    ]);
    expect(exportRows({ scenarios: scenarios.slice(0, 1), split: "eval" })).toHaveLength(12);
  });

  it("writes TRL JSONL whose columns reopen the same session on the env server", async () => {
    const rows = exportRows({ scenarios, split: "train", n: 2 });
    const path = join(dir, "nested", "train.jsonl");
    writeTrlJsonl(rows, path);
    const lines = readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(Object.keys(lines[0]!)).toEqual(["prompt", "scenario", "split", "index", "task_id", "seed"]);
    const { fetch } = createGymHandler({ seed: 1 });
    for (const row of lines) {
      const { scenario, split, index, seed, task_id } = row;
      const response = await fetch(
        new Request("http://local/v1/sessions", {
          method: "POST",
          body: JSON.stringify({ scenario, split, index, seed, task_id }),
        }),
      );
      const session = (await response.json()) as { messages: unknown; task_id: string };
      expect(session.task_id).toBe(task_id);
      expect(session.messages).toEqual(row.prompt);
    }
  });

  it("writes verl parquet that reads back with its nested fields", async () => {
    const rows = exportRows({ scenarios, split: "eval", n: 2 });
    const path = join(dir, "eval.parquet");
    writeVerlParquet(rows, path);
    const read = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
    const plain = JSON.parse(JSON.stringify(read, (_, v) => (typeof v === "bigint" ? Number(v) : v)));
    expect(plain).toEqual(rows.map(verlRecord));
    expect(plain[0]).toMatchObject({
      data_source: "atlas-gym/jira-transition-v1",
      agent_name: "atlas_env",
      ability: "tool_use",
      reward_model: { style: "rule" },
      extra_info: { split: "eval", index: 0, task_index: 0, task_id: "jira-transition-v1/eval/0" },
    });
    expect(plain[0].prompt.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
  });

  it("numbers verl rows uniquely across scenarios and across exports with another --start", () => {
    const first = exportRows({ scenarios, split: "train", n: 3 }).map(verlRecord);
    const next = exportRows({ scenarios, split: "train", n: 3, start: 3 }).map(verlRecord);
    const indices = [...first, ...next].map((r) => r.extra_info.index);
    expect(new Set(indices).size).toBe(12);
    expect(first.map((r) => [r.extra_info.task_index, r.extra_info.index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 2],
      [1, 3],
      [2, 4],
      [2, 5],
    ]);
  });

  it("writes the agent-loop config verl's Ray workers load, with the env server URL", () => {
    const path = join(dir, "verl", "agent_loop.yaml");
    writeVerlAgentLoopConfig(path, { envUrl: "http://10.0.0.5:4010", rewardMode: "state" });
    expect(parseYaml(readFileSync(path, "utf8"))).toEqual([
      {
        name: "atlas_env",
        _target_: "atlas_gym.verl_agent_loop.AtlasEnvAgentLoop",
        env_url: "http://10.0.0.5:4010",
        reward_mode: "state",
      },
    ]);
  });

  it("atlas-gym export --format verl writes the parquet and the loop config, and refuses a bad --env-url", () => {
    const bin = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));
    const out = join(dir, "cli", "train.parquet");
    const args = ["export", "--format", "verl", "--n", "1", "--scenario", "jira-transition-v1", "--out", out];
    const bad = spawnSync(bin, [...args, "--env-url", "10.0.0.5:4010"], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--env-url must look like http://10.0.0.5:4010, got "10.0.0.5:4010"');
    expect(existsSync(out)).toBe(false);
    const good = spawnSync(bin, [...args, "--env-url", "http://10.0.0.5:4010,http://10.0.0.6:4010"], {
      encoding: "utf8",
    });
    expect(good.status).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(parseYaml(readFileSync(join(dir, "cli", "agent_loop.yaml"), "utf8"))[0].env_url).toBe(
      "http://10.0.0.5:4010,http://10.0.0.6:4010",
    );
    expect(good.stderr).toBe(""); // an in-family train export says nothing more
  });

  it("atlas-gym export notes a held-out family's train tasks, and JSON lines under another name", () => {
    const bin = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));
    const out = join(dir, "cli", "held.parquet");
    const args = [
      "export",
      "--format",
      "trl",
      "--n",
      "1",
      "--scenario",
      "confluence-page-tree-v1",
      "--out",
      out,
    ];
    const noted = spawnSync(bin, args, { encoding: "utf8" });
    expect(noted.status).toBe(0);
    expect(noted.stdout).toContain("wrote 1 train task (confluence-page-tree-v1)");
    expect(noted.stderr).toContain("confluence-page-tree-v1 is a held-out family, kept out of training");
    expect(noted.stderr).toContain("--format trl writes JSON lines");
  });
});
