/**
 * `policy:<name>`: a scripted policy behind the TaskPolicy interface (the one kind that reaches the task). Its script is worked out once per
 * episode (on a scratch copy, as the scripted policy does); the adapter then emits one call per turn as
 * an assistant tool call, and the script's final message after the last call.
 */

import type { Episode } from "../../env/episode.ts";
import { createRandom } from "../../sandbox/random.ts";
import { argumentsText, callId } from "../tool-calls.ts";
import type { PolicyTurn, TaskPolicy } from "../types.ts";
import { findPolicy } from "./policies.ts";
import type { Script } from "./replay.ts";

export function createScriptedPolicy(name: string): TaskPolicy {
  const scripted = findPolicy(name);
  const scripts = new WeakMap<Episode, Script>();
  return {
    name: `policy:${name}`,
    readsTask: true,
    async next(messages, _tools, { episode, sample = 0 }) {
      let script = scripts.get(episode);
      if (!script) {
        script = scripted.script(episode, createRandom(`${episode.task.id}:${name}:${sample}`));
        scripts.set(episode, script);
      }
      const step = messages.filter((m) => m.role === "assistant").length;
      const call = script.calls[step];
      const turn: PolicyTurn = call
        ? {
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: callId(step + 1),
                  type: "function",
                  function: { name: call.name, arguments: argumentsText(call.arguments) },
                },
              ],
            },
            latencyMs: 0,
          }
        : { message: { role: "assistant", content: script.final }, latencyMs: 0 };
      return turn;
    },
  };
}
