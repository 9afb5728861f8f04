import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { HELD_OUT, SCENARIOS } from "../scenarios/index.ts";
import { loadTrainConfig, parseTrainConfig } from "./config.ts";

const KNOWN = ["jira-transition-v1", "jira-subtask-create-v1"];

describe("training config", () => {
  it("fills TRL's defaults around the required fields", () => {
    const config = parseTrainConfig(
      "model: Qwen/Qwen3-1.7B\nscenarios: [jira-transition-v1]\n",
      "c.yaml",
      KNOWN,
    );
    expect(config).toMatchObject({
      model: "Qwen/Qwen3-1.7B",
      num_generations: 8,
      loss_type: "dapo",
      beta: 0,
      epsilon: 0.2,
      reward_mode: "paper",
      vllm: { enabled: false, mode: "colocate" },
      logging_steps: 1,
    });
    expect(config.lora).toBeUndefined();
    expect(config.early_stopping).toBeUndefined();
  });

  it("reads a full recipe with LoRA, vLLM colocate and early stopping", () => {
    const config = parseTrainConfig(
      [
        "model: Qwen/Qwen3-1.7B",
        "lora: {r: 16, alpha: 32, dropout: 0, target_modules: [q_proj, v_proj]}",
        "num_generations: 4",
        "per_device_train_batch_size: 2",
        "gradient_accumulation_steps: 2",
        "epsilon_high: 0.28",
        "scenarios: [jira-transition-v1, jira-subtask-create-v1]",
        "vllm: {enabled: true}",
        "early_stopping: {threshold: 0.95}",
      ].join("\n"),
      "c.yaml",
      KNOWN,
    );
    expect(config.lora).toEqual({ r: 16, alpha: 32, dropout: 0, target_modules: ["q_proj", "v_proj"] });
    expect(config.vllm).toEqual({ enabled: true, mode: "colocate" });
    expect(config.early_stopping).toEqual({ window: 10, threshold: 0.95 });
  });

  it("reports every problem at once, by path", () => {
    const attempt = () =>
      parseTrainConfig(
        "model: m\nscenarios: [jira-transition-v1, nope-v1]\nlearning_rate: -1\nloss_type: ppo\nvlm: {}\n",
        "bad.yaml",
        KNOWN,
      );
    expect(attempt).toThrow(UsageError);
    const message = (() => {
      try {
        attempt();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^bad\.yaml: invalid training config/);
    expect(message).toMatch(/learning_rate: /);
    expect(message).toMatch(/loss_type: /);
    expect(message).toMatch(/Unrecognized key: "vlm"/);
    expect(message).toMatch(/unknown scenario "nope-v1"/);
  });

  it("checks that a batch holds whole GRPO groups and that clip-higher is not lower", () => {
    expect(() =>
      parseTrainConfig("model: m\nscenarios: [jira-transition-v1]\nnum_generations: 3\n", "c.yaml"),
    ).toThrow(/per_device_train_batch_size: .* \(8\) must be a multiple of num_generations \(3\)/);
    expect(() =>
      parseTrainConfig("model: m\nscenarios: [jira-transition-v1]\nepsilon_high: 0.1\n", "c.yaml"),
    ).toThrow(/epsilon_high \(0\.1\) must not be below epsilon/);
  });

  it("checks scenario ids, YAML syntax and the file itself", () => {
    expect(() => parseTrainConfig("model: m\nscenarios: [nope-v1]\n", "c.yaml", KNOWN)).toThrow(
      /unknown scenario "nope-v1"/,
    );
    expect(() => parseTrainConfig("model: [unclosed\n", "c.yaml")).toThrow(/not valid YAML/);
    expect(() => parseTrainConfig("- a\n- b\n", "c.yaml")).toThrow(/expected a YAML mapping/);
    expect(() => loadTrainConfig("/nonexistent/x.yaml")).toThrow(/Cannot read config .*ENOENT/);
    const dir = mkdtempSync(join(tmpdir(), "atlas-config-"));
    writeFileSync(join(dir, "ok.yaml"), "model: m\nscenarios: [jira-transition-v1]\n");
    expect(loadTrainConfig(join(dir, "ok.yaml"), KNOWN).model).toBe("m");
  });

  it("refuses to train on a held-out family", () => {
    const text = "model: m\nscenarios: [jira-transition-v1, jira-subtask-create-v1]\n";
    expect(parseTrainConfig(text, "c.yaml", KNOWN, ["jira-transition-v1"].slice(1)).model).toBe("m");
    expect(() => parseTrainConfig(text, "c.yaml", KNOWN, ["jira-subtask-create-v1"])).toThrow(
      /"jira-subtask-create-v1" is a held-out family/,
    );
  });

  it("reads the learning recipe's warm start and evaluation, and checks the warm start's families", () => {
    const config = parseTrainConfig(
      "model: m\nscenarios: [jira-transition-v1]\nwarm_start: {epochs: 2}\nevaluate: {}\nprompt_tools: server\n",
      "c.yaml",
      KNOWN,
    );
    expect(config.warm_start).toEqual({
      reference_tasks: 100,
      skip_index_below: 16,
      epochs: 2,
      learning_rate: 3e-3,
      batch_size: 8,
      vocab_size: 8192,
      size: "learn",
    });
    expect(config.evaluate).toEqual({ tasks: 16, k: 2, temperature: 1, max_tokens: 256 });
    expect(config.prompt_tools).toBe("server");
    expect(parseTrainConfig("model: m\nscenarios: [jira-transition-v1]\n", "c.yaml").prompt_tools).toBe(
      "type_hints",
    );
    const bad =
      "model: m\nscenarios: [jira-transition-v1]\nwarm_start: {scenarios: [nope, jira-subtask-create-v1]}\n";
    expect(() => parseTrainConfig(bad, "c.yaml", KNOWN, ["jira-subtask-create-v1"])).toThrow(
      /warm_start\.scenarios: unknown scenario "nope"[\s\S]*warm_start\.scenarios: "jira-subtask-create-v1" is a held-out family/,
    );
  });

  it("takes a level filter of levels 1 to 6, absent by default", () => {
    const base = "model: m\nscenarios: [jira-transition-v1]\n";
    expect(parseTrainConfig(`${base}levels: [1]\n`, "c.yaml").levels).toEqual([1]);
    expect(parseTrainConfig(base, "c.yaml").levels).toBeUndefined();
    expect(() => parseTrainConfig(`${base}levels: [0, 7]\n`, "c.yaml")).toThrow(
      /levels\.0: .*\n.*levels\.1: /,
    );
    expect(() => parseTrainConfig(`${base}levels: []\n`, "c.yaml")).toThrow(/levels: /);
  });

  it("accepts every recipe shipped in configs/", () => {
    const dir = new URL("../../configs/", import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(0);
    const ids = SCENARIOS.map((s) => s.id);
    for (const file of files)
      expect(loadTrainConfig(new URL(file, dir).pathname, ids, HELD_OUT).model).toMatch(/\S/);
  });
});
