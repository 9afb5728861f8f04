// createPolicy: --model specs and options, and the local: provider's messages when the model cannot be
// had (module missing, file missing, download failing) — clear text, never a stack trace — plus a
// local rollout through a stand-in for node-llama-cpp.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEpisode } from "../../env/episode.ts";
import { UsageError } from "../../errors.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { findScenario } from "../../scenarios/index.ts";
import { runEpisode } from "../rollout.ts";
import { recordReference } from "../scripted/replay.ts";
import { createPolicy, DEFAULT_LOCAL_MODEL, LocalModelError } from "./index.ts";
import type { LlamaModule } from "./local-llama.ts";

describe("createPolicy", () => {
  it.each([
    ["openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B", "openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B"],
    ["openai:https://api.example.com/v1/#ft:model#2", "openai:https://api.example.com/v1#ft:model#2"],
    ["raw:http://localhost:8000/v1#m", "raw:http://localhost:8000/v1#m"],
    ["policy:reference", "policy:reference"],
    ["local:./model.gguf", "local:./model.gguf"],
  ])("accepts %s", (spec, name) => {
    expect(createPolicy(spec).name).toBe(name);
  });

  it.each([
    ["qwen3", /no provider prefix/],
    ["anthropic:x", /unknown provider 'anthropic'/],
    ["openai:http://127.0.0.1:8000/v1", /model name is missing/],
    ["openai:http://127.0.0.1:8000/v1#", /after '#' is empty/],
    ["openai:localhost:8000#m", /not an http\(s\) URL/],
    ["raw:not a url#m", /is not a URL/],
    ["local:", /needs a GGUF file path/],
    ["policy:genius", /no scripted policy 'genius' \(known: reference, noop/],
  ])("rejects %s with a usage error that shows examples", (spec, why) => {
    const attempt = () => createPolicy(spec);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(why);
    expect(attempt).toThrow(/Examples:\n {2}openai:/);
  });

  it.each([
    [{ temperature: -1 }, /Invalid temperature -1/],
    [{ topP: 2 }, /Invalid top-p 2/],
    [{ maxTokens: 0 }, /Invalid max-tokens 0/],
    [{ retries: Number.NaN }, /Invalid retries NaN/],
    [{ seed: 1.5 }, /Invalid seed 1.5/],
    [{ rawFormat: "llama3" as "qwen3" }, /Invalid raw format 'llama3'/],
  ])("rejects bad options %o", (options, why) => {
    expect(() => createPolicy("policy:reference", options)).toThrow(why);
  });

  it("suggests the local Qwen3-1.7B GGUF", () => {
    expect(`local:${DEFAULT_LOCAL_MODEL}`).toBe("local:hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf");
  });
});

describe("local: when the model cannot be had", () => {
  const scenario = findScenario("jira-transition-v1");
  const [task] = tasksFor(scenario, "eval", 1);
  const noStack = (message: string) => expect(message).not.toMatch(/\n\s+at /);

  it("names a missing file and the ways out, from init() and on the trace", async () => {
    const policy = createPolicy("local:/nowhere/qwen3-1.7b-q8_0.gguf");
    const failure = await policy.init!().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LocalModelError);
    const message = (failure as Error).message;
    expect(message).toContain("there is no file at /nowhere/qwen3-1.7b-q8_0.gguf");
    expect(message).toContain("--model local:/path/to/qwen3-1.7b-q8_0.gguf");
    expect(message).toContain("--model openai:");
    noStack(message);
    const trace = await runEpisode(createEpisode(scenario, task!), policy);
    expect(trace).toMatchObject({
      truncation: "provider_error",
      error: { type: "model_unavailable", message },
    });
  });

  it("says node-llama-cpp is not installed when it cannot be imported", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "atlas-gym-")), "m.gguf");
    writeFileSync(file, "GGUF");
    const missing = Object.assign(new Error("Cannot find package 'node-llama-cpp'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const policy = createPolicy(`local:${file}`, { importModule: () => Promise.reject(missing) });
    await expect(policy.init!()).rejects.toThrow(
      /node-llama-cpp is not installed .*npm install -E node-llama-cpp@3\.21\.1/,
    );
  });

  it("names the hf: file when it cannot be downloaded", async () => {
    const error = Object.assign(new Error("getaddrinfo ENOTFOUND huggingface.co"), { code: "ENOTFOUND" });
    const offline = fakeModule({ resolveModelFile: () => Promise.reject(error) });
    const policy = createPolicy("local:hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf", {
      importModule: async () => offline,
      probe: async () => undefined,
    });
    const message = await policy.init!().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(message).toMatch(
      /^Cannot load the local model 'hf:Qwen\/Qwen3-1.7B-GGUF\/Qwen3-1.7B-Q8_0.gguf': it is not on this machine and could not be downloaded \(ENOTFOUND: getaddrinfo ENOTFOUND huggingface.co\)/,
    );
    expect(message).toContain("--model local:/path/to/Qwen3-1.7B-Q8_0.gguf");
    noStack(message);
  });

  it("does not start a download when the host cannot be reached", async () => {
    const downloads: unknown[] = [];
    const module = fakeModule({
      resolveModelFile: async (_uri, options) => {
        downloads.push(options.download);
        throw new Error("No model file found and download is disabled");
      },
    });
    const policy = createPolicy("local:hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf", {
      importModule: async () => module,
      probe: async () => "https://huggingface.co cannot be reached: ENOTFOUND",
    });
    await expect(policy.init!()).rejects.toThrow(
      "could not be downloaded (https://huggingface.co cannot be reached: ENOTFOUND)",
    );
    expect(downloads).toEqual([false]);
  });

  it("uses a model downloaded before without touching the network", async () => {
    const module = fakeModule({
      resolveModelFile: async (uri, options) => (options.download === false ? `/cache/${uri}` : ""),
    });
    const policy = createPolicy("local:hf:a/b/c.gguf", {
      importModule: async () => module,
      probe: () => Promise.reject(new Error("network used")),
    });
    await expect(policy.init!()).resolves.toBeUndefined();
  });

  it("gives up a download that makes no progress", async () => {
    const hanging = fakeModule({
      resolveModelFile: (_uri, options) =>
        options.download === false ? Promise.reject(new Error("not here")) : new Promise(() => {}),
    });
    const policy = createPolicy("local:hf:a/b/c.gguf", {
      importModule: async () => hanging,
      downloadStallMs: 20,
      probe: async () => undefined,
    });
    await expect(policy.init!()).rejects.toThrow(/could not be downloaded \(no progress for 0.02 s\)/);
  });
});

describe("local: generation", () => {
  it("renders the Qwen3 prompt, parses the completion, and solves the task", async () => {
    const scenario = findScenario("jira-transition-v1");
    const [task] = tasksFor(scenario, "eval", 1);
    const script = recordReference(scenario, task!);
    const prompts: string[] = [];
    const module = fakeModule({
      generate: (prompt) => {
        prompts.push(prompt);
        const step = prompt.split("<|im_start|>assistant").length - 2;
        const call = script.calls[step];
        return call
          ? `<think>\nok\n</think>\n\n<tool_call>\n{"name": "${call.name}", "arguments": ${JSON.stringify(call.arguments)}}\n</tool_call>`
          : `<think>\n\n</think>\n\n${script.final}<|im_end|>`;
      },
    });
    const policy = createPolicy("local:hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf", {
      importModule: async () => module,
    });
    const trace = await runEpisode(createEpisode(scenario, task!), policy);
    expect(trace.score).toMatchObject({ reward: 1, passed: true });
    expect(trace.finalMessage).toBe(script.final);
    expect(prompts[0]).toMatch(/^<\|im_start\|>system\n[\s\S]*# Tools[\s\S]*<\|im_start\|>assistant\n$/);
    expect(trace.turns[0]!.turn.raw).toContain("<tool_call>");
  });
});

/** A stand-in for node-llama-cpp: tokenize() keeps the text, and generation is a function of the prompt. */
function fakeModule(parts: {
  resolveModelFile?: LlamaModule["resolveModelFile"];
  generate?: (prompt: string) => string;
}): LlamaModule {
  const model = {
    tokenize: (text: string) => [text],
    createContext: async () => ({ getSequence: () => ({}) }),
    dispose: async () => {},
  };
  return {
    resolveModelFile: parts.resolveModelFile ?? (async (uri: string) => `/models/${uri}`),
    getLlama: async () => ({ loadModel: async () => model }),
    LlamaCompletion: class {
      async generateCompletion(input: unknown) {
        return (parts.generate ?? (() => ""))((input as string[])[0]!);
      }
      dispose() {}
    },
  };
}
