/**
 * RepeatReads: an episode's answers to read tool calls, kept while its site is unchanged, so the same
 * read asked again (an agent re-checking an issue, a trainer's group replaying a prefix) is answered
 * without parsing, validating and presenting it again. An entry is keyed by the tool's name and the
 * arguments exactly as sent, and is valid only for the site revision it was computed at: any write moves
 * the revision (see Site.revision) and drops every entry. A repeat gets its own trace record with the
 * same fields as the first (status, body, observation), so traces, journals and rewards cannot tell a
 * repeat from a fresh call. Only the episode's own offered tools are kept (other tool sets miss).
 */
import type { Site } from "../sandbox/site.ts";
import type { Tool } from "../tools/define-tool.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";

const MAX_ENTRIES = 64;

export interface RepeatReads {
  /** The call's result: a copy of the kept one for a repeat, else what `run` answers (kept when a read). */
  answer(
    site: Site,
    tools: ReadonlyMap<string, Tool>,
    call: ToolCallRequest,
    run: () => ToolCallResult,
  ): ToolCallResult;
}

export function createRepeatReads(offered: ReadonlyMap<string, Tool>): RepeatReads {
  let revision = -1;
  const kept = new Map<string, ToolCallResult>();
  return {
    answer(site, tools, call, run) {
      const key = tools === offered ? keyOf(call) : null;
      if (key === null || tools.get(call.name)?.operation.effect !== "read") return run();
      if (site.revision !== revision) {
        kept.clear();
        revision = site.revision;
      }
      const hit = kept.get(key);
      if (hit) return { ...hit, arguments: argumentsOf(call, hit) };
      const result = run();
      // A read that ran an operation (any status: a 404 is as repeatable as a 200) on an unchanged site.
      if (result.status !== null && site.revision === revision) {
        if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value!);
        kept.set(key, result);
      }
      return result;
    },
  };
}

/** The key of a call: its tool name and its arguments as sent (JSON text, or an object serialised). */
function keyOf(call: ToolCallRequest): string | null {
  const args = call.arguments;
  if (typeof args === "string") return `${call.name}\n${args}`;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return null;
  return `${call.name}\n${JSON.stringify(args)}`;
}

/** A repeat's own parsed arguments (an object sent is recorded as itself, as on a first call). */
function argumentsOf(call: ToolCallRequest, hit: ToolCallResult): unknown {
  return typeof call.arguments === "string" ? structuredClone(hit.arguments) : call.arguments;
}
