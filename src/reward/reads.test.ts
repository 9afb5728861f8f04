import { describe, expect, it } from "vitest";
import { createSite } from "../sandbox/fixtures/default-site.ts";
import { identities, isDecisiveSearch, readIsAbout } from "./reads.ts";

describe("reads about a record", () => {
  const site = createSite({ seed: 7 });
  const issue = [...site.values("issues")][0]!;
  const project = site.get("projects", issue.projectId)!;
  const call = (operationId: string, params: Record<string, unknown>, body: unknown) => ({
    operationId,
    input: { params, body: undefined },
    body,
  });

  it("counts a request naming the record by id or key (any case), or a response holding it", () => {
    const ids = identities(site, { table: "issues", id: issue.id });
    expect(readIsAbout(call("getIssue", { issueIdOrKey: issue.key.toLowerCase() }, {}), ids)).toBe(true);
    expect(readIsAbout(call("getIssue", { issueIdOrKey: issue.id }, {}), ids)).toBe(true);
    expect(readIsAbout(call("getIssues", {}, { issues: [{ id: issue.id, key: issue.key }] }), ids)).toBe(
      true,
    );
  });

  it("counts a search only by its result", () => {
    const ids = identities(site, { table: "issues", id: issue.id });
    const search = (issues: unknown[]) =>
      call("searchAndReconsileIssuesUsingJqlPost", { jql: `key = ${issue.key}` }, { issues });
    expect(readIsAbout(search([]), ids)).toBe(false);
    expect(readIsAbout(search([{ id: issue.id, key: issue.key }]), ids)).toBe(true);
  });

  it("does not take another kind of object with the same id for the record", () => {
    const ids = identities(site, { table: "projects", id: project.id });
    const other = { fields: { resolution: { id: project.id, name: "Done" } } };
    expect(readIsAbout(call("getIssue", { issueIdOrKey: "X-1" }, other), ids)).toBe(false);
    expect(readIsAbout(call("getIssue", { issueIdOrKey: "X-1" }, { fields: { project } }), ids)).toBe(true);
  });
});

describe("a decisive search", () => {
  const search = (params: Record<string, unknown>, answer: unknown, body?: unknown) => ({
    operationId: "searchByCQL",
    input: { params, body },
    body: answer,
  });
  const cql = 'type = page AND space = "ENG" AND label = "obsolete"';

  it("names the missing thing in its query and finds nothing", () => {
    expect(isDecisiveSearch(search({ cql }, { results: [] }), ["Obsolete"])).toBe(true);
    expect(isDecisiveSearch(search({}, { issues: [], total: 0 }, { jql: cql }), ["obsolete"])).toBe(true);
    // Jira's approximate count: a count of zero is an empty listing; any other count finds something.
    expect(isDecisiveSearch(search({}, { count: 0 }, { jql: cql }), ["obsolete"])).toBe(true);
    expect(isDecisiveSearch(search({}, { count: 2 }, { jql: cql }), ["obsolete"])).toBe(false);
    expect(isDecisiveSearch(search({}, { count: 0 }, { jql: "project = ENG" }), ["obsolete"])).toBe(false);
  });

  it("is not one that finds something, names something else or answers no listing", () => {
    expect(isDecisiveSearch(search({ cql }, { results: [{ id: "1" }] }), ["obsolete"])).toBe(false);
    expect(isDecisiveSearch(search({ cql: 'label = "obsolete-v2"' }, { results: [] }), ["obsolete"])).toBe(
      false,
    );
    expect(isDecisiveSearch(search({ cql: "type = page" }, { results: [] }), ["obsolete"])).toBe(false);
    expect(isDecisiveSearch(search({ cql }, { id: "1" }), ["obsolete"])).toBe(false);
    expect(isDecisiveSearch(search({ cql }, { results: [] }), [])).toBe(false);
  });
});
