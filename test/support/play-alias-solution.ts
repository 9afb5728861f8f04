/**
 * Runs a scenario's alias solution (src/scenarios/alias-solution.ts) on an in-process episode, step by
 * step, as an MCP client would (test/mcp-support.ts drives the same generators over MCP).
 */

import type { Episode } from "../../src/env/episode.ts";
import type { AliasSolution } from "../../src/scenarios/alias-solution.ts";

/** Runs a solution on an episode and records its final message (a task to decline pays only with one). */
export function play(episode: Episode, solution: AliasSolution): string {
  let next = solution.next();
  while (!next.done) {
    const result = episode.step(next.value);
    next = solution.next({ ok: result.ok, body: result.body });
  }
  episode.finish(next.value);
  return next.value;
}
