/**
 * The final-answer tool of an MCP session bound to an episode: `submit_final_answer {answer}` records the
 * agent's final answer on the episode (what a rollout's last reply without tool calls, or `final_message`
 * on `POST /v1/sessions/{sid}/score`, is elsewhere), so a task that must be declined can be earned over
 * MCP alone. It is not a call on the site: it never reaches the trace, the budget or the call penalties.
 * A later answer replaces an earlier one; an empty answer is an error and records nothing. Free sessions
 * have no task, so they have no such tool; the env server's `/v1/sessions/{sid}/tools` does not list it
 * either (trainers send `final_message` with the score request).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpBinding } from "./mcp-binding.ts";

export const FINAL_ANSWER_TOOL = "submit_final_answer";

/** The sentence the server's instructions give a bound session about the tool. */
export const FINAL_ANSWER_HINT = `When you have finished the request, or find it cannot be carried out, give a short summary with the ${FINAL_ANSWER_TOOL} tool (it is not a call on the site and does not count against the budget).`;

export function registerFinalAnswer(server: McpServer, episode: NonNullable<McpBinding["episode"]>): void {
  server.registerTool(
    FINAL_ANSWER_TOOL,
    {
      description:
        "Give your final answer to the task: a short summary of what you did, or why the request cannot be carried out. It is recorded for scoring (a later answer replaces it); it is not a call on the site and does not count against the tool-call budget.",
      inputSchema: { answer: z.string().describe("Your final answer, in plain text.") },
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ answer }) => {
      if (answer.trim() === "")
        return {
          content: [{ type: "text", text: "Error: the answer is empty; nothing was recorded." }],
          isError: true,
        };
      await episode.finish(answer);
      return {
        content: [
          {
            type: "text",
            text: `Final answer recorded (${answer.length} characters); it counts when the episode is scored.`,
          },
        ],
      };
    },
  );
}
