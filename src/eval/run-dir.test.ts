import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { provenanceOf } from "./provenance.ts";
import { defaultRunDir, EvalConfig, readRunFile, runFiles, writeRunConfig } from "./run-dir.ts";

describe("run directory", () => {
  it("is named after the model by default, never after a URL's host or port", () => {
    expect(defaultRunDir("openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B")).toBe("out/eval-Qwen-Qwen3-8B");
    expect(defaultRunDir("openai:http://127.0.0.1:9/v1#m")).toBe("out/eval-m");
    expect(defaultRunDir("raw:https://api.example.com/v1#qwen3.5-9b")).toBe("out/eval-qwen3.5-9b");
    expect(defaultRunDir("local:./models/qwen3-1.7b-q8_0.gguf")).toBe("out/eval-qwen3-1.7b-q8_0");
    expect(defaultRunDir("local:hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf")).toBe(
      "out/eval-Qwen3-1.7B-Q8_0",
    );
    expect(defaultRunDir("policy:reference")).toBe("out/eval-policy-reference");
  });

  it("writes run.json in snake_case and reads the configuration back from it", () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-run-dir-"));
    const config = EvalConfig.parse({
      model: "openai:http://x/v1#m",
      scenarios: ["jira-transition-v1", "confluence-page-label-v1"],
      split: "eval",
      k: 3,
      concurrency: 2,
      seed: 7,
      reward: "gated",
      maxTurns: 12,
      tools: "rovo",
      provider: { topP: 0.9, maxTokens: 64, chatTemplateKwargs: { enable_thinking: false, someKey: 1 } },
    });
    writeRunConfig(dir, config, provenanceOf(config, new Date(0)));
    const text = readFileSync(runFiles(dir).config, "utf8");
    expect(text).toContain('"max_turns": 12');
    expect(text).toContain('"top_p": 0.9');
    // Keys inside values (the chat template's kwargs) are data: kept as given.
    expect(text).toContain('"someKey": 1');
    expect(text).not.toMatch(/"(maxTurns|topP|maxTokens|chatTemplateKwargs)"/);
    expect(readRunFile(dir)!.config).toEqual(config);
  });
});
