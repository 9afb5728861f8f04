import { describe, expect, it } from "vitest";
import { AGENT_ACCOUNT_ID, createSite } from "../../sandbox/fixtures/default-site.ts";
import type { Site } from "../../sandbox/site.ts";
import { executeToolCall } from "../execute-tool.ts";
import { allToolNames, missingOperations, offeredTools, TOOL_SET_NAMES, toolSet } from "./tool-sets.ts";

const ctx = { baseUrl: "https://atlas-gym.atlassian.net", accountId: AGENT_ACCOUNT_ID };
const run = (site: Site, set: "rovo" | "mcp-atlassian", name: string, args: unknown) =>
  executeToolCall(site, toolSet(set), { name, arguments: args }, ctx);

describe("tool sets", () => {
  it("give every tool an object JSON Schema and one operation", () => {
    for (const set of TOOL_SET_NAMES)
      for (const tool of toolSet(set).values()) {
        expect(tool.parameters.type, tool.name).toBe("object");
        expect(tool.parameters.$schema, tool.name).toBeUndefined();
        expect(tool.description.length, tool.name).toBeGreaterThan(10);
      }
    expect(toolSet("rovo").size).toBe(20);
    expect(toolSet("mcp-atlassian").size).toBe(25);
    expect(allToolNames().has("createJiraIssue")).toBe(true);
    expect(allToolNames().has("jira_find_users")).toBe(true);
  });

  it("reuse the operation's field schemas for renamed arguments", () => {
    const rovo = toolSet("rovo").get("getJiraIssue")!.parameters.properties as Record<string, unknown>;
    const rest = toolSet("default").get("jira_get_issue")!.parameters.properties as Record<string, unknown>;
    expect(rovo.issueIdOrKey).toEqual(rest.issueIdOrKey);
    expect(rovo.fields).toEqual(rest.fields);
  });

  it("say what a set lacks of a reward's operations", () => {
    const needs = {
      mutations: [{ operationId: "addLabelsToContent" }],
      validate: { reads: [{ operationIds: ["getPageLabels", "getLabelsForContent"] }] },
      verify: { reads: [{ operationIds: ["getPageById"] }] },
    };
    expect(missingOperations(toolSet("rovo"), needs)).toEqual([
      "addLabelsToContent",
      "one of getPageLabels, getLabelsForContent",
    ]);
    expect(missingOperations(toolSet("mcp-atlassian"), needs)).toEqual([]);
  });

  it("offer mcp-atlassian's CQL search with the Confluence listings it stands in for", () => {
    const needs = { mutations: [], validate: { reads: [] }, verify: { reads: [] } };
    const offered = (tools: string[]) => [...offeredTools("mcp-atlassian", { id: "s", tools }, needs).keys()];
    expect(offered(["confluence_get_spaces", "confluence_create_page"])).toEqual([
      "confluence_search",
      "confluence_create_page",
    ]);
    expect(offered(["confluence_get_pages"])).toContain("confluence_search");
    expect(offered(["confluence_get_page", "jira_get_issue"])).not.toContain("confluence_search");
  });
});

describe("alias arguments", () => {
  it("rejects arguments outside the alias schema with a vendor 400, changing nothing", () => {
    const site = createSite({ seed: 3 });
    const before = site.hash();
    const jira = run(site, "rovo", "createJiraIssue", { projectKey: "ENG", issueTypeName: "Task" });
    expect(jira).toMatchObject({
      ok: false,
      status: 400,
      errorType: "invalid_args",
      effect: "write",
      input: null,
    });
    expect(jira.body).toEqual({
      errorMessages: [
        "Invalid arguments for createJiraIssue: 'summary': Invalid input: expected string, received undefined",
      ],
      errors: {},
    });
    const label = run(site, "mcp-atlassian", "confluence_add_label", { page_id: "1" });
    expect(label).toMatchObject({ status: 400, errorType: "invalid_args" });
    expect((label.body as { message: string }).message).toContain("'name'");
    const page = run(site, "mcp-atlassian", "confluence_get_page", { title: "Home" });
    expect(page.observation).toContain("give page_id, or title and space_key");
    expect(site.hash()).toBe(before);
  });

  it("answers failed lookups like the vendor and changes nothing", () => {
    const site = createSite({ seed: 3 });
    const before = site.hash();
    const space = run(site, "mcp-atlassian", "confluence_create_page", {
      space_key: "NOPE",
      title: "t",
      content: "c",
    });
    expect(space).toMatchObject({ ok: false, status: 404, errorType: "api_error" });
    expect(space.observation).toContain("no space with key 'NOPE'");
    const user = run(site, "mcp-atlassian", "jira_assign_issue", { issue_key: "ENG-1", assignee: "Jordan" });
    expect(user).toMatchObject({ ok: false, status: 400 });
    expect(user.observation).toMatch(/'Jordan' matches several users: Jordan Lee .*Jordan Leigh/);
    expect(site.hash()).toBe(before);
  });

  it("converts Markdown to ADF and resolves users and transitions by name", () => {
    const site = createSite({ seed: 3 });
    const user = [...site.values("users")].find((u) => u.active && u.accountId !== AGENT_ACCOUNT_ID)!;
    const created = run(site, "mcp-atlassian", "jira_create_issue", {
      project_key: "ENG",
      summary: "Alias check",
      issue_type: "Task",
      assignee: user.emailAddress.toUpperCase(),
      description: "# Plan\n\n- **one**\n- two",
      additional_fields: '{"priority": "High", "labels": ["alias"]}',
    });
    expect(created.ok, created.observation).toBe(true);
    expect(created.input!.body).toMatchObject({
      fields: { assignee: { accountId: user.accountId }, priority: { name: "High" }, labels: ["alias"] },
    });
    const key = (created.body as { key: string }).key;
    const issue = site.get("issues", site.get("issueKeys", key.toUpperCase())!)!;
    expect(issue.description?.content.map((n) => n.type)).toEqual(["heading", "bulletList"]);
    const moved = run(site, "mcp-atlassian", "jira_transition_issue", {
      issue_key: key,
      transition_id: "in progress",
    });
    expect(moved.ok, moved.observation).toBe(true);
    expect(moved.input!.body).toMatchObject({ transition: { id: expect.stringMatching(/^\d+$/) } });
  });

  it("builds JQL from mcp-atlassian's projects_filter and asks for its default fields", () => {
    const site = createSite({ seed: 3 });
    const found = run(site, "mcp-atlassian", "jira_search", {
      jql: "status = Done",
      projects_filter: "ENG,OPS",
    });
    expect(found.input!.body).toMatchObject({
      jql: 'project IN ("ENG", "OPS") AND (status = Done)',
      maxResults: 10,
      fields: expect.arrayContaining(["summary", "status", "description"]),
    });
  });

  it("runs mcp-atlassian's confluence_search as CQL, plain text as a text search, within spaces_filter", () => {
    const site = createSite({ seed: 3 });
    const space = run(site, "mcp-atlassian", "confluence_search", {
      query: 'type = space AND space.title = "Operations Handbook"',
    });
    expect(space.ok, space.observation).toBe(true);
    expect(space.input!.params).toEqual({
      cql: 'type = space AND space.title = "Operations Handbook"',
      limit: 10,
    });
    expect((space.body as { results: { space: { key: string } }[] }).results.map((r) => r.space.key)).toEqual(
      ["OPS"],
    );
    const text = run(site, "mcp-atlassian", "confluence_search", {
      query: 'deploy "runbook"',
      spaces_filter: "ENG, OPS",
      limit: 3,
    });
    expect(text.ok, text.observation).toBe(true);
    expect(text.input!.params).toEqual({
      cql: '(text ~ "deploy \\"runbook\\"") AND space IN ("ENG", "OPS")',
      limit: 3,
    });
    expect((text.body as { results: { title: string }[] }).results[0]!.title).toBe("Deploy Runbook");
    const ordered = run(site, "mcp-atlassian", "confluence_search", {
      query: "type = page ORDER BY title DESC",
      spaces_filter: "HR",
    });
    expect(ordered.input!.params).toMatchObject({
      cql: '(type = page) AND space IN ("HR") ORDER BY title DESC',
    });
    expect((ordered.body as { results: { title: string }[] }).results.map((r) => r.title)).toEqual([
      "Travel Policy",
      "Team Directory",
      "Remote Work Policy",
      "Policies",
      "People Team Home",
    ]);
    const before = site.hash();
    const bad = run(site, "mcp-atlassian", "confluence_search", { query: "title = (" });
    expect(bad).toMatchObject({ ok: false, status: 400 });
    expect(bad.observation).toContain("Could not parse cql : title = (");
    expect(run(site, "mcp-atlassian", "confluence_search", { query: "x", limit: 51 })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(site.hash()).toBe(before);
  });

  it("takes the page version from the site on Confluence updates", () => {
    const site = createSite({ seed: 3 });
    const page = [...site.values("pages")].find((p) => p.status === "current")!;
    const updated = run(site, "rovo", "updateConfluencePage", { pageId: page.id, body: "New *text*" });
    expect(updated.ok, updated.observation).toBe(true);
    expect(site.get("pages", page.id)).toMatchObject({
      title: page.title,
      version: { number: page.version.number + 1 },
      body: { representation: "storage", value: "<p>New <em>text</em></p>" },
    });
  });
});
