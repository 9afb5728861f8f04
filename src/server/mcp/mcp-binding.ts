/**
 * What an MCP session is bound to. A free session owns a forked site and offers every tool of its set;
 * an episode session offers the set's tools for its scenario, records every call on the episode's trace
 * (so its score counts whatever the agent did over MCP), takes the agent's final answer (off the trace:
 * it is not a call on the site) and exposes the task prompt and the score. An episode may belong to
 * the env server, whose call lock (`run`) then orders MCP calls with REST and /v1 calls on the same
 * session.
 */

import type { Episode } from "../../env/episode.ts";
import { taskTools } from "../../env/offered-tools.ts";
import type { RewardMode, Score } from "../../reward/score.ts";
import type { OperationContext } from "../../sandbox/define-operation.ts";
import { AGENT_ACCOUNT_ID } from "../../sandbox/fixtures/default-site.ts";
import type { Site } from "../../sandbox/site.ts";
import { type ToolSetName, toolSet } from "../../tools/aliases/tool-sets.ts";
import type { Tool } from "../../tools/define-tool.ts";
import { executeToolCall } from "../../tools/execute-tool.ts";
import type { ToolCallRequest, ToolCallResult } from "../../tools/tool-call-result.ts";

export interface McpBinding {
  readonly toolSet: ToolSetName;
  /** The tools the session offers, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** Runs one tool call on the bound site (never rejects for agent mistakes). */
  call(request: ToolCallRequest): Promise<ToolCallResult>;
  /** A digest of the bound site, to check that a call changed (or did not change) anything. */
  siteState(): Promise<{ seed: number; hash: string; calls: number }>;
  /** Present when the session is bound to an episode. */
  readonly episode?: {
    readonly taskId: string;
    readonly prompt: string;
    readonly budget: number;
    score(mode?: RewardMode): Promise<Score>;
    /** Records the agent's final answer (the `submit_final_answer` tool); a later one replaces it. */
    finish(answer: string): Promise<void>;
    /** The final answer recorded so far, or null. */
    finalAnswer(): Promise<string | null>;
  };
}

/** A free sandbox: every tool of the set on a site of its own. */
export function createSiteBinding(site: Site, set: ToolSetName, baseUrl: string): McpBinding {
  const tools = toolSet(set);
  const ctx: OperationContext = { baseUrl, accountId: AGENT_ACCOUNT_ID };
  let calls = 0;
  return {
    toolSet: set,
    tools,
    call: async (request) => {
      calls++;
      return executeToolCall(site, tools, request, ctx);
    },
    siteState: async () => ({ seed: site.seed, hash: site.hash(), calls }),
  };
}

/** Runs a function under an episode's call lock (the env server's `Session.run`). */
export type EpisodeRunner = <T>(fn: (episode: Episode) => T) => Promise<T>;

/**
 * An episode: the set's tools for its scenario (ToolSetNotCoveredError when the set cannot run what
 * the reward needs). `run` defaults to calling directly (an episode owned by this MCP session alone).
 */
export function createEpisodeBinding(
  episode: Episode,
  set: ToolSetName,
  run: EpisodeRunner = async (fn) => fn(episode),
): McpBinding {
  const tools = taskTools(episode.scenario, set);
  return {
    toolSet: set,
    tools,
    call: (request) => run((e) => e.step(request, tools)),
    siteState: () => run((e) => ({ seed: e.site.seed, hash: e.site.hash(), calls: e.calls.length })),
    episode: {
      taskId: episode.task.id,
      prompt: episode.task.prompt,
      budget: episode.expectation.budget,
      score: (mode) => run((e) => e.score(mode)),
      finish: (answer) => run((e) => e.finish(answer)),
      finalAnswer: () => run((e) => e.finalMessage),
    },
  };
}
