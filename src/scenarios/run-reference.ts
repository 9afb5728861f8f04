/**
 * Runs a reference solution on a site with the default tools, as the agent's account: each call the
 * solution yields is executed and its result sent back, until it returns its final answer. The one loop
 * the reference outcome and the workflow generator (which plays earlier steps forward) share.
 */
import { AGENT_ACCOUNT_ID } from "../sandbox/fixtures/default-site.ts";
import type { Site } from "../sandbox/site.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { executeToolCall } from "../tools/execute-tool.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import type { ReferenceSolution } from "./define-scenario.ts";

export interface ReferenceRun {
  results: ToolCallResult[];
  answer: string;
}

/** Runs `solution` on `site` (which it changes); `where` names it in the error when it does not end. */
export function runReference(
  site: Site,
  solution: ReferenceSolution,
  baseUrl: string,
  where: string,
): ReferenceRun {
  const tools = defaultTools();
  const results: ToolCallResult[] = [];
  let next = solution.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    if (results.length > 200) throw new Error(`${where}: the reference solution does not end`);
    const result = executeToolCall(site, tools, next.value, { baseUrl, accountId: AGENT_ACCOUNT_ID });
    results.push(result);
    next = solution.next(result);
  }
  return { results, answer: next.value };
}
