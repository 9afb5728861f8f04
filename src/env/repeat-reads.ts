/**
 * RepeatReads: answers to read tool calls, kept while the site they were computed on is unchanged, so
 * the same read asked again is answered without parsing, validating and presenting it again. Two tiers:
 *
 * - the episode's own: a read repeated in one episode (an agent re-checking an issue), valid for the
 *   site revision it was computed at; any write moves the revision (see Site.revision) and drops them all;
 * - the pristine site's, shared by every episode forked from it (`shared`): while an episode has not
 *   changed its site (revision 0, so its state is the pristine one), its reads are answered from what
 *   another episode of the same task computed — the G rollouts of a GRPO group, or eval's k samples,
 *   mostly begin with the same reads. Kept per tool object and base URL, so an alias tool set or another
 *   base URL never shares an answer it would word differently; bounded per site, gone with the site.
 *
 * An entry is keyed by the tool's name and the arguments exactly as sent. A repeat gets its own trace
 * record with the same fields as the first (status, body, observation), so traces, journals and rewards
 * cannot tell a repeat from a fresh call. Only the episode's own offered tools are kept (other tool sets
 * miss). Kept records are never changed after they are made (the trace shares their body and input).
 */
import type { Site } from "../sandbox/site.ts";
import type { Tool } from "../tools/define-tool.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";

const MAX_ENTRIES = 64;
/** Per pristine site, tool and base URL: a task's reads before its first write are few. */
const MAX_SHARED_ENTRIES = 256;

export interface RepeatReads {
  /** The call's result: a copy of the kept one for a repeat, else what `run` answers (kept when a read). */
  answer(
    site: Site,
    tools: ReadonlyMap<string, Tool>,
    call: ToolCallRequest,
    run: () => ToolCallResult,
  ): ToolCallResult;
}

/**
 * The site an episode forked its own from, that site's revision at the fork (a site that is read and
 * forked only keeps one; a write to it would start new entries, never serve old ones), and the base URL
 * the episode's answers are worded with.
 */
export interface SharedScope {
  pristine: Site;
  revision: number;
  baseUrl: string;
}

export function createRepeatReads(offered: ReadonlyMap<string, Tool>, shared?: SharedScope): RepeatReads {
  let revision = -1;
  const kept = new Map<string, ToolCallResult>();
  // The shared tier's reads by tool, found once for the episode (its scope never changes).
  const byTool = shared ? sharedTier(shared) : undefined;
  return {
    answer(site, tools, call, run) {
      const key = tools === offered ? keyOf(call) : null;
      const tool = tools.get(call.name);
      if (key === null || tool?.operation.effect !== "read") return run();
      if (site.revision !== revision) {
        kept.clear();
        revision = site.revision;
      }
      const hit = kept.get(key);
      if (hit) return { ...hit, arguments: argumentsOf(call, hit) };
      // A fork's revision is 0 until its first change: its state is then the pristine site's.
      const common = byTool && site.revision === 0 ? readsOf(byTool, tool) : undefined;
      const known = common?.get(key);
      // Not kept in the episode's own tier too: the shared one answers while the site is unchanged.
      if (known) return { ...known, arguments: argumentsOf(call, known) };
      const result = run();
      // A read that ran an operation (any status: a 404 is as repeatable as a 200) on an unchanged site.
      if (result.status !== null && site.revision === revision) {
        keep(kept, key, result, MAX_ENTRIES);
        if (common) keep(common, key, result, MAX_SHARED_ENTRIES);
      }
      return result;
    },
  };
}

type ByTool = WeakMap<Tool, Map<string, ToolCallResult>>;

/** pristine site → its revision at the fork and the base URL → tool → kept reads. */
const SHARED = new WeakMap<Site, Map<string, ByTool>>();

function sharedTier({ pristine, revision, baseUrl }: SharedScope): ByTool {
  const byScope = SHARED.get(pristine) ?? SHARED.set(pristine, new Map()).get(pristine)!;
  const scope = `${revision} ${baseUrl}`;
  return byScope.get(scope) ?? byScope.set(scope, new WeakMap()).get(scope)!;
}

function readsOf(byTool: ByTool, tool: Tool): Map<string, ToolCallResult> {
  return byTool.get(tool) ?? byTool.set(tool, new Map()).get(tool)!;
}

/** Keeps `result` under `key`, dropping the oldest entry when the map is full. */
function keep(map: Map<string, ToolCallResult>, key: string, result: ToolCallResult, max: number) {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, result);
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
