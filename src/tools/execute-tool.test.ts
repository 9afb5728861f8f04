/**
 * executeToolCall's argument checks: arguments nested past the JSON limit are the agent's invalid_args
 * whether they come as text (parsed here) or already parsed (MCP over stdio, an in-process caller), and
 * nothing runs on the site.
 */
import { describe, expect, it } from "vitest";
import { AGENT_ACCOUNT_ID, createSite, DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import { MAX_JSON_DEPTH } from "../sandbox/parse-json.ts";
import { defaultTools } from "./catalogue.ts";
import { executeToolCall } from "./execute-tool.ts";

const ctx = { baseUrl: DEFAULT_BASE_URL, accountId: AGENT_ACCOUNT_ID };
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("executeToolCall", () => {
  it("refuses arguments nested too deep, as text or as an object, and runs nothing", () => {
    const site = createSite({ seed: 1 });
    const before = site.hash();
    const comment = (junk: unknown) => ({ issueIdOrKey: "ENG-1", body: "hi", junk });
    for (const args of [
      JSON.stringify(comment(JSON.parse(nested(MAX_JSON_DEPTH)))),
      comment(JSON.parse(nested(MAX_JSON_DEPTH))),
    ]) {
      const result = executeToolCall(
        site,
        defaultTools(),
        { name: "jira_add_comment", arguments: args },
        ctx,
      );
      expect(result).toMatchObject({ ok: false, errorType: "invalid_args", status: null });
      expect(result.observation).toMatch(/deeper than 1000 levels/);
    }
    expect(site.hash()).toBe(before);
    const shallow = comment(JSON.parse(nested(10)));
    expect(
      executeToolCall(site, defaultTools(), { name: "jira_get_issue", arguments: shallow }, ctx).ok,
    ).toBe(true);
  });
});
