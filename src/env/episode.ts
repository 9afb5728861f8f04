/**
 * Episode: one task being attempted. It holds the task's site, offers the task's tools (taskTools),
 * executes tool calls on the site (recording each on the trace, through the one toolCallResult builder,
 * with what each write changed), enforces the call budget, and scores the trace against the task's
 * Expectation and the site diff. The env server, the MCP server, the rollout loop, the audit and the
 * scripted policies all drive episodes through this one object (layer `env`, between agent and scenarios).
 */

import type { Expectation } from "../reward/expectation.ts";
import type { RulesOff } from "../reward/rules.ts";
import { type RewardMode, type Score, type ScoredCall, score } from "../reward/score.ts";
import type { Operation, OperationContext } from "../sandbox/define-operation.ts";
import { diff, type RecordChange } from "../sandbox/diff.ts";
import type { OperationInput, OperationResult } from "../sandbox/execute.ts";
import { AGENT_ACCOUNT_ID, DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Task } from "../scenarios/define-scenario.ts";
import { referenceChanges } from "../scenarios/reference-outcome.ts";
import { allToolNames, type ToolSetName } from "../tools/aliases/tool-sets.ts";
import { type FunctionTool, type Tool, toFunctionTool } from "../tools/define-tool.ts";
import { executeToolCall } from "../tools/execute-tool.ts";
import { type ToolCallRequest, type ToolCallResult, toolCallResult } from "../tools/tool-call-result.ts";
import { taskTools } from "./offered-tools.ts";
import { pristineSite } from "./pristine-sites.ts";
import { createRepeatReads } from "./repeat-reads.ts";

export interface Episode {
  readonly task: Task;
  readonly scenario: Scenario;
  /** The live site the agent changes. */
  readonly site: Site;
  /** What the task asks for (plain data; logged with the episode). */
  readonly expectation: Expectation;
  readonly calls: readonly ToolCallResult[];
  /** The agent's final answer, once given (see finish). */
  readonly finalMessage: string | null;
  /** Tools offered, in OpenAI function form. */
  functionTools(): FunctionTool[];
  /** Whether another call is within the budget. */
  canCall(): boolean;
  /**
   * Executes one tool call (never throws for agent mistakes) and records it. `tools` runs it with
   * another surface's tools for the same operations instead of the offered ones (an MCP server bound
   * to this episode with an alias tool set); the budget and the trace are the same.
   */
  step(call: ToolCallRequest, tools?: ReadonlyMap<string, Tool>): ToolCallResult;
  /**
   * Records an operation that another surface (the REST facade under /s/<session>) already ran on this
   * episode's site through executeOperation, so the score counts it like a tool call. Its name on the
   * trace is `${method} ${path}`; `input` is null when the request failed before the operation ran.
   */
  recordOperation(op: Operation, input: OperationInput | null, result: OperationResult): ToolCallResult;
  /** Records the agent's final answer (a refusal task pays only with one). */
  finish(message: string | null): void;
  /**
   * Marks the episode's state now (site, trace, final answer) and returns what takes it back there:
   * the env server undoes a call whose journal line could not be written, so memory never holds a change
   * the journal lacks.
   */
  checkpoint(): () => void;
  /** The episode's score; `off` turns second-pass rules off (the reward audit's "before" only). */
  score(mode?: RewardMode, off?: RulesOff): Score;
}

export interface EpisodeOptions {
  /** The site's base URL in tool outputs (default: the canonical DEFAULT_BASE_URL, as in eval). */
  baseUrl?: string;
  /**
   * Where the site is also served over REST (the env server's `/s/<session>`): its answers link there,
   * so the rewards accept page URLs on this base as well as on `baseUrl`.
   */
  restBaseUrl?: string;
  /** Tools by name; the scenario's allowed names are looked up here (default: the default catalogue). */
  tools?: ReadonlyMap<string, Tool>;
  /**
   * Offer this tool set's tools for the scenario's operations instead of its default names (see
   * tools/aliases/tool-sets.ts); throws ToolSetNotCoveredError when the set cannot run what the reward needs.
   */
  toolSet?: ToolSetName;
  /**
   * The task's pristine site, when the caller already has it (from siteForTask or generateTask). It is
   * only read and forked, never written, so one can be shared: the env server shares one per task across
   * the sessions of a GRPO group. Default: the task's shared pristine site (pristine-sites.ts).
   */
  initialSite?: Site;
}

export function createEpisode<E>(
  scenario: Scenario<E>,
  task: Task<E>,
  options: EpisodeOptions = {},
): Episode {
  const initial = options.initialSite ?? pristineSite(scenario, task);
  const site = initial.fork();
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  const expectation = scenario.expect(task, initial, { baseUrl, restBaseUrl: options.restBaseUrl });
  const offered = taskTools(scenario, options.toolSet, options.tools);
  const ctx: OperationContext = { baseUrl, accountId: AGENT_ACCOUNT_ID };
  const calls: ToolCallResult[] = [];
  /** What each call changed on the site: the diff from the state after the previous call. */
  const changes: (readonly RecordChange[])[] = [];
  let last = site.fork();
  let lastRevision = site.revision;
  const push = (result: ToolCallResult) => {
    calls.push(result);
    changes.push(result.ok && result.effect === "write" ? diff(last, site) : NO_CHANGES);
    // The state after this call, for the next write's diff; after a read it is the state kept already.
    if (site.revision !== lastRevision) {
      last = site.fork();
      lastRevision = site.revision;
    }
    return result;
  };
  let finalMessage: string | null = null;
  const repeats = createRepeatReads(offered, { pristine: initial, revision: initial.revision, baseUrl });
  const episode: Episode = {
    task: task as Task,
    scenario: scenario as Scenario,
    site,
    expectation,
    calls,
    get finalMessage() {
      return finalMessage;
    },
    functionTools: () => [...offered.values()].map(toFunctionTool),
    canCall: () => calls.length < expectation.budget,
    step(call, tools = offered) {
      return push(
        calls.length < expectation.budget
          ? repeats.answer(site, tools, call, () => executeToolCall(site, tools, call, ctx))
          : overBudget(call, expectation.budget),
      );
    },
    recordOperation(op, input, result) {
      const call = { name: `${op.method} ${op.path}`, arguments: input };
      return push(
        toolCallResult(call, op, { ...result, input: input && { params: input.params, body: input.body } }),
      );
    },
    finish(message) {
      finalMessage = message;
    },
    checkpoint() {
      const [snapshot, length, lastBefore, message] = [site.fork(), calls.length, last, finalMessage];
      return () => {
        site.restore(snapshot);
        calls.length = length;
        changes.length = length;
        [last, lastRevision, finalMessage] = [lastBefore, site.revision, message];
      };
    },
    score: (mode = "paper", off) =>
      score({
        expectation,
        calls: calls.map((c, i): ScoredCall => ({ ...c, changes: changes[i] ?? [] })),
        initial,
        final: site,
        reference: referenceChanges(scenario, task, initial, baseUrl),
        finalMessage,
        knownTools: allToolNames(),
        mode,
        ...(off ? { off } : {}),
      }),
  };
  return episode;
}

const NO_CHANGES: readonly RecordChange[] = Object.freeze([]);

/** A call past the budget is recorded but not executed; the rollout is truncated after it. */
function overBudget(call: ToolCallRequest, budget: number): ToolCallResult {
  const message = `Error: the budget of ${budget} tool calls is spent; this call was not executed.`;
  return toolCallResult(call, null, { status: null, errorType: "budget", message });
}
