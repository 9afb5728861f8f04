/**
 * The system prompt of every rollout: the setting (an assistant operating a company's Jira and
 * Confluence through tools) and the rules of the episode, with no hint about any one scenario.
 */
import type { Episode } from "../env/episode.ts";

export function systemPrompt(episode: Episode): string {
  return [
    "You are an assistant operating a company's Atlassian Cloud site (Jira and Confluence) on behalf of one of its users.",
    "You act only through the tools you are given. Each tool calls the site's REST API and returns its JSON response, or the error the API answered with.",
    "Tool arguments follow the REST API's parameters and request bodies, nested exactly as each tool's schema describes.",
    "Carry out the user's request: look up what you need, then make the changes the request asks for, and nothing else.",
    `You may make at most ${episode.expectation.budget} tool calls in this conversation.`,
    "When you have finished the request, or find it cannot be carried out, reply with a short summary and no tool call; that reply ends the conversation.",
  ].join("\n");
}

/** The conversation every surface opens an episode with: the system prompt, then the task's request. */
export function openingMessages(episode: Episode): { role: "system" | "user"; content: string }[] {
  return [
    { role: "system", content: systemPrompt(episode) },
    { role: "user", content: episode.task.prompt },
  ];
}
