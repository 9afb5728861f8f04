/**
 * createMcpServer: an MCP server (the official SDK's McpServer) for one binding. Each offered tool is
 * registered under its name with its own JSON Schema, the one every other surface derives from the
 * operation; a call's answer is the observation an agent sees elsewhere (the REST body as JSON, or the
 * vendor's error), with `isError` when the call failed, so bad arguments change nothing and say why.
 * Resources: `atlas-gym://site` (a digest of the site) always; `atlas-gym://task/prompt` and
 * `atlas-gym://task/score` (with the final answer given so far) when the session is bound to an episode,
 * which also gets the `submit_final_answer` tool (final-answer.ts). The score names what the task expects,
 * so it is the trainer's: an MCP session the agent opened on its session's token has no score resource,
 * and a request the agent sends on any MCP session cannot read it (`AGENT_AUTH`, set per request by
 * http-handler.ts).
 */

import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCallResult } from "../../tools/tool-call-result.ts";
import { VERSION } from "../../version.ts";
import { scoreJson } from "../protocol.ts";
import { FINAL_ANSWER_HINT, registerFinalAnswer } from "./final-answer.ts";
import { inputSchemaFor } from "./input-schema.ts";
import type { McpBinding } from "./mcp-binding.ts";

export const SITE_URI = "atlas-gym://site";
export const PROMPT_URI = "atlas-gym://task/prompt";
export const SCORE_URI = "atlas-gym://task/score";

/** The auth info of a request the agent sent on its session's token (never the trainer's). */
export const AGENT_AUTH: AuthInfo = { token: "", clientId: "agent", scopes: [] };

export function createMcpServer(binding: McpBinding, options: { agent?: boolean } = {}): McpServer {
  const { episode } = binding;
  const where = options.agent
    ? `The task is also at ${PROMPT_URI}.`
    : `The task is also at ${PROMPT_URI}; the current score at ${SCORE_URI}.`;
  const server = new McpServer(
    { name: "atlas-gym", version: VERSION },
    {
      instructions: episode
        ? `${episode.prompt}\n\n(atlas-gym task ${episode.taskId}; at most ${episode.budget} tool calls. ${FINAL_ANSWER_HINT} ${where})`
        : `A simulated Atlassian Cloud site (Jira and Confluence) with the "${binding.toolSet}" tool set. Nothing here touches a real site.`,
    },
  );
  for (const tool of binding.tools.values()) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: inputSchemaFor(tool.parameters),
        annotations: { readOnlyHint: tool.operation.effect === "read", openWorldHint: false },
      },
      async (args: unknown) => toCallToolResult(await binding.call({ name: tool.name, arguments: args })),
    );
  }
  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
  });
  server.registerResource(
    "site",
    SITE_URI,
    { description: "Seed, state hash and call count of this session's site.", mimeType: "application/json" },
    async (uri) => json(uri, await binding.siteState()),
  );
  if (episode) {
    server.registerResource(
      "task-prompt",
      PROMPT_URI,
      { description: `The task prompt of ${episode.taskId}.`, mimeType: "text/plain" },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: episode.prompt }] }),
    );
    if (!options.agent)
      server.registerResource(
        "task-score",
        SCORE_URI,
        {
          description:
            "The episode's score so far (paper reward, components, violations) and the final answer given.",
          mimeType: "application/json",
        },
        async (uri, extra) => {
          if (extra.authInfo === AGENT_AUTH)
            throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.href} not found`);
          return json(uri, {
            ...scoreJson(await episode.score()),
            final_answer: await episode.finalAnswer(),
          });
        },
      );
    registerFinalAnswer(server, episode);
  }
  return server;
}

export function toCallToolResult(result: ToolCallResult): CallToolResult {
  return { content: [{ type: "text", text: result.observation }], isError: !result.ok };
}
