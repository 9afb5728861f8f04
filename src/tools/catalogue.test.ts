import { describe, expect, it } from "vitest";
import { AGENT_ACCOUNT_ID, createSite } from "../sandbox/fixtures/default-site.ts";
import { DEFAULT_TOOL_SPECS, defaultTools } from "./catalogue.ts";
import { toFunctionTool } from "./define-tool.ts";
import { executeToolCall } from "./execute-tool.ts";

const ctx = { baseUrl: "http://sim.test", accountId: AGENT_ACCOUNT_ID };
type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  type?: string;
  items?: Schema;
  description?: string;
};

describe("default tool catalogue", () => {
  const tools = defaultTools();

  it("offers the 28 default tools, each bound to an operation, in OpenAI function form", () => {
    expect([...tools.keys()]).toEqual(DEFAULT_TOOL_SPECS.map((s) => s.name));
    expect(tools.size).toBe(28);
    for (const tool of tools.values()) {
      const fn = toFunctionTool(tool);
      expect(fn.type).toBe("function");
      expect(fn.function.description.length).toBeGreaterThan(20);
      expect(fn.function.parameters.type).toBe("object");
    }
  });

  it("keeps the REST payload's nesting in the argument schema", () => {
    const create = tools.get("jira_create_issue")!.parameters as Schema;
    const fields = create.properties!.fields!;
    expect(fields.properties!.project!.properties).toHaveProperty("key");
    expect(fields.properties!.parent!.properties).toHaveProperty("key");
    expect(fields.properties!.issuetype!.properties).toHaveProperty("id");
    const transition = tools.get("jira_transition_issue")!.parameters as Schema;
    expect(transition.properties!.transition!.properties).toHaveProperty("id");
    expect(transition.required).toContain("issueIdOrKey");
    const page = tools.get("confluence_create_page")!.parameters as Schema;
    expect(page.properties).toHaveProperty("spaceId");
    expect(JSON.stringify(page.properties!.body)).toContain("representation");
    const labels = tools.get("confluence_add_page_labels")!.parameters as Schema;
    expect(JSON.stringify(labels.properties!.labels)).toContain("prefix");
  });

  it("executes a call through the operation and returns the JSON body as the observation", () => {
    const site = createSite({ seed: 1 });
    const result = executeToolCall(
      site,
      tools,
      { name: "jira_get_issue", arguments: '{"issueIdOrKey":"ENG-1","fields":["summary"]}' },
      ctx,
    );
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      operationId: "getIssue",
      effect: "read",
      errorType: null,
    });
    expect(JSON.parse(result.observation).key).toBe("ENG-1");
  });

  it("maps a path parameter shared with the body (updatePage's id) from the one argument", () => {
    const page = tools.get("confluence_update_page")!;
    const input = page.toInput({
      id: "42",
      status: "current",
      title: "T",
      body: { representation: "storage", value: "<p/>" },
      version: { number: 2 },
    });
    expect(input.params).toEqual({ id: "42" });
    expect(input.body).toMatchObject({ id: "42", title: "T", version: { number: 2 } });
  });

  it("answers unknown tools, unparseable and non-object arguments with an observation, never a throw", () => {
    const site = createSite({ seed: 1 });
    const before = site.hash();
    const unknown = executeToolCall(site, tools, { name: "jira_delete_everything", arguments: "{}" }, ctx);
    expect(unknown).toMatchObject({ ok: false, errorType: "unknown_tool", status: null });
    expect(unknown.observation).toMatch(/unknown tool 'jira_delete_everything'.*jira_get_issue/);
    const broken = executeToolCall(
      site,
      tools,
      { name: "jira_get_issue", arguments: '{"issueIdOrKey": ' },
      ctx,
    );
    expect(broken).toMatchObject({ ok: false, errorType: "invalid_args" });
    expect(broken.observation).toMatch(/not valid JSON/);
    const array = executeToolCall(site, tools, { name: "jira_get_issue", arguments: "[1]" }, ctx);
    expect(array.observation).toMatch(/must be a JSON object/);
    const rejected = executeToolCall(
      site,
      tools,
      { name: "jira_create_issue", arguments: { fields: { summary: "x" } } },
      ctx,
    );
    expect(rejected).toMatchObject({ ok: false, errorType: "api_error", status: 400 });
    expect(rejected.observation).toMatch(/^Error 400: /);
    expect(site.hash()).toBe(before);
  });

  it("finds labelled pages with CQL and removes a label from one page only", () => {
    const site = createSite({ seed: 1 });
    const labelled = [...site.values("pageLabels")].filter((l) => l.name === "runbook");
    expect(labelled.length).toBeGreaterThan(1);
    const run = (name: string, args: Record<string, unknown>) =>
      executeToolCall(site, tools, { name, arguments: args }, ctx);
    const found = run("confluence_search_cql", { cql: 'type=page AND label="runbook"', limit: 100 });
    expect(found).toMatchObject({ ok: true, operationId: "searchByCQL", effect: "read" });
    expect((found.body as { totalSize: number }).totalSize).toBe(labelled.length);
    const removed = run("confluence_remove_page_label", { id: labelled[0]!.pageId, name: "runbook" });
    expect(removed).toMatchObject({ ok: true, status: 204, effect: "write" });
    const left = [...site.values("pageLabels")].filter((l) => l.name === "runbook");
    expect(left.map((l) => l.pageId)).toEqual(labelled.slice(1).map((l) => l.pageId));
    const again = run("confluence_remove_page_label", { id: labelled[0]!.pageId, name: "runbook" });
    expect(again).toMatchObject({ ok: false, status: 404 });
  });
});
