/**
 * `atlas-gym mcp` over stdio with the SDK's own client (each test spawns ./bin/atlas-gym): the tools
 * of each set, bad arguments (an MCP tool error, the site unchanged), one task solved per set with its
 * prompt and score as resources, and a stdio session bridged to an env-server session (scored by
 * /v1/sessions/{sid}/score); a task to decline earned with submit_final_answer, in the one-task mode and
 * bridged. Seven spawns, run concurrently; the HTTP suite covers every scenario and set, and
 * src/cli/commands/mcp.test.ts the flags.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEvalSplit } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { PROMPT_URI, SCORE_URI, SITE_URI } from "../src/server/mcp/create-mcp-server.ts";
import { FINAL_ANSWER_TOOL } from "../src/server/mcp/final-answer.ts";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";
import { type ToolSetName, toolSet } from "../src/tools/aliases/tool-sets.ts";
import {
  BIN,
  callTool,
  connectStdio,
  readJson,
  readText,
  solveOverMcp,
  submitFinalAnswer,
} from "./mcp-support.ts";
import { initializeRequest } from "./support/mcp-messages.ts";

const BAD: Record<ToolSetName, [string, Record<string, unknown>]> = {
  default: ["jira_transition_issue", { issueIdOrKey: "ENG-1", transition: { id: "99999" } }],
  rovo: ["transitionJiraIssue", { issueIdOrKey: "ENG-1" }],
  "mcp-atlassian": ["confluence_add_label", { page_id: "1", name: "" }],
};

describe.concurrent("atlas-gym mcp over stdio", () => {
  describe("free sandbox", () => {
    it.each(Object.keys(BAD) as ToolSetName[])(
      "%s: lists its tools; bad arguments change nothing",
      async (set) => {
        const { client } = await connectStdio(["--tools", set, "--seed", "7"]);
        try {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name).sort()).toEqual([...toolSet(set).keys()].sort());
          const before = await readJson<{ seed: number; hash: string }>(client, SITE_URI);
          expect(before.seed).toBe(7);
          const [name, args] = BAD[set];
          const answer = await callTool(client, name, args);
          expect(answer.ok).toBe(false);
          expect(answer.text).toMatch(/^Error 400: /);
          expect((await readJson<{ hash: string }>(client, SITE_URI)).hash).toBe(before.hash);
        } finally {
          await client.close();
        }
      },
    );
  });

  const TASKS: [ToolSetName, string, number][] = [["rovo", "jira-subtask-create-v1", 10]];

  describe("one task (a level-2 sub-task through Rovo)", () => {
    it.each(TASKS)("%s solves %s eval %i; prompt and score are resources", async (set, scenarioId, index) => {
      const task = loadEvalSplit(findScenario(scenarioId)).tasks[index]!;
      const { client } = await connectStdio([
        "--tools",
        set,
        "--scenario",
        scenarioId,
        "--index",
        String(index),
      ]);
      try {
        expect(await readText(client, PROMPT_URI)).toBe(task.prompt);
        expect((await readJson<{ reward: number }>(client, SCORE_URI)).reward).toBeLessThan(1);
        expect(await solveOverMcp(client, set, task)).not.toBeNull();
        const score = await readJson<{ reward: number; explanation: string }>(client, SCORE_URI);
        expect(score.reward, score.explanation).toBe(1);
      } finally {
        await client.close();
      }
    });
  });

  it("one task to decline (jira-assign-v1 eval 11): earned by submit_final_answer, and only with it", async () => {
    const task = loadEvalSplit(findScenario("jira-assign-v1")).tasks[11]!;
    const args = ["--tools", "mcp-atlassian", "--scenario", "jira-assign-v1", "--index", "11"];
    const { client } = await connectStdio(args);
    try {
      expect(client.getInstructions()).toContain(FINAL_ANSWER_TOOL);
      const final = await solveOverMcp(client, "mcp-atlassian", task);
      const unanswered = await readJson<Scored>(client, SCORE_URI);
      expect(unanswered.passed).toBe(false);
      expect(unanswered.violations.map((v) => v.code)).toContain("no_final_answer");
      expect((await submitFinalAnswer(client, final)).isError).toBe(false);
      const score = await readJson<Scored>(client, SCORE_URI);
      expect(score.reward, score.explanation).toBe(1);
      expect(score).toMatchObject({ passed: true, final_answer: final });
    } finally {
      await client.close();
    }
  });

  describe("bridged to an env-server session", () => {
    let server: RunningGymServer;
    beforeAll(async () => {
      server = await startGymServer({ port: 0, seed: 1, token: "s3cret" });
    });
    afterAll(() => server.close());
    const auth = { authorization: "Bearer s3cret", "content-type": "application/json" };
    /** Opens an env-server session on `task_id`; its id. */
    const openSession = async (task_id: string) => {
      const opened = await fetch(`${server.url}/v1/sessions`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ task_id }),
      });
      return ((await opened.json()) as { session_id: string }).session_id;
    };

    it("scores what the agent did over MCP at /v1/sessions/{sid}/score", async () => {
      const sid = await openSession("cross-product-page-link-v1/eval/1");
      const task = loadEvalSplit(findScenario("cross-product-page-link-v1")).tasks[1]!;
      const args = [
        "--tools",
        "mcp-atlassian",
        "--session",
        sid,
        "--server",
        server.url,
        "--token",
        "s3cret",
      ];
      const { client } = await connectStdio(args);
      try {
        expect(await solveOverMcp(client, "mcp-atlassian", task)).not.toBeNull();
        const scored = await fetch(`${server.url}/v1/sessions/${sid}/score`, {
          method: "POST",
          headers: auth,
        });
        const score = (await scored.json()) as { reward: number; explanation: string };
        expect(score.reward, score.explanation).toBe(1);
        expect((await readJson<{ reward: number }>(client, SCORE_URI)).reward).toBe(1);
      } finally {
        await client.close();
      }
    });

    it("answers every request of lines written at once, stdin closed at once after them", async () => {
      const sid = await openSession("jira-transition-v1/eval/0");
      const lines = [
        initializeRequest(1, "pipe"),
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "jira_get_issue", arguments: { issueIdOrKey: "ENG-1" } },
        },
      ];
      const args = ["mcp", "--session", sid, "--server", server.url, "--token", "s3cret"];
      const out = await new Promise<string>((resolve) => {
        const child = spawn(BIN, args);
        let text = "";
        child.stdout.on("data", (d: Buffer) => {
          text += d;
        });
        child.on("exit", () => resolve(text));
        child.stdin.end(`${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
      });
      const answers = out
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { id: number; result?: { tools?: unknown[]; isError?: boolean } });
      expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
      expect(answers.find((a) => a.id === 2)?.result?.tools?.length).toBeGreaterThan(0);
      expect(answers.find((a) => a.id === 3)?.result?.isError).toBe(false);
      const trace = await fetch(`${server.url}/v1/sessions/${sid}/trace`, { headers: auth });
      expect(((await trace.json()) as { calls: unknown[] }).calls).toHaveLength(1);
    });

    it("earns a refusal with submit_final_answer, scored without final_message", async () => {
      const sid = await openSession("jira-assign-v1/eval/11");
      const task = loadEvalSplit(findScenario("jira-assign-v1")).tasks[11]!;
      const args = [
        "--tools",
        "mcp-atlassian",
        "--session",
        sid,
        "--server",
        server.url,
        "--token",
        "s3cret",
      ];
      const { client } = await connectStdio(args);
      try {
        const final = await solveOverMcp(client, "mcp-atlassian", task);
        const scoreOf = async () =>
          (await (
            await fetch(`${server.url}/v1/sessions/${sid}/score`, { method: "POST", headers: auth })
          ).json()) as Scored;
        const before = await scoreOf();
        expect(before.violations.map((v) => v.code)).toContain("no_final_answer");
        expect((await submitFinalAnswer(client, final)).isError).toBe(false);
        const score = await scoreOf();
        expect(score.reward, score.explanation).toBe(1);
        expect(score.passed).toBe(true);
      } finally {
        await client.close();
      }
    });
  });
});

interface Scored {
  reward: number;
  passed: boolean;
  explanation: string;
  violations: { code: string }[];
  final_answer?: string | null;
}
