/**
 * Real values from the seeded site, for the fuzzer to mix into generated requests: without them almost
 * every generated id misses and only the "not found" paths would be exercised. Each pool is keyed by the
 * parameter or property name it fills (`issueIdOrKey`, `spaceId`, ...); `badIds` names none of them.
 */
import fc from "fast-check";
import type { Site } from "../../src/sandbox/site.ts";

export interface SiteValues {
  /** Real values for a parameter or property name (path, query or body), when the site has some. */
  forName(name: string, path: string, where: "path" | "query" | "body"): fc.Arbitrary<unknown> | undefined;
  /** Ids that name nothing on the site (whatever the case), for the "bad id" negative requests. */
  badIds: fc.Arbitrary<string>;
}

export function siteValues(site: Site): SiteValues {
  const all = <T>(table: Parameters<Site["values"]>[0], pick: (r: never) => T) =>
    [...site.values(table)].map((r) => pick(r as never));
  const issues = [
    ...all("issues", (i: { key: string }) => i.key),
    ...all("issues", (i: { id: string }) => i.id),
  ];
  const projects = [
    ...all("projects", (p: { key: string }) => p.key),
    ...all("projects", (p: { id: string }) => p.id),
  ];
  const accounts = all("users", (u: { accountId: string }) => u.accountId);
  const issueTypes = all("issueTypes", (t: { id: string }) => t.id);
  const issueTypeNames = [...new Set(all("issueTypes", (t: { name: string }) => t.name))];
  const comments = all("comments", (c: { id: string }) => c.id);
  const spaces = all("spaces", (s: { id: string }) => s.id);
  const spaceKeys = all("spaces", (s: { key: string }) => s.key);
  const pages = all("pages", (p: { id: string }) => p.id);
  const labels = [...new Set(all("pageLabels", (l: { name: string }) => l.name))];
  const known = new Set(
    [...issues, ...projects, ...accounts, ...issueTypes, ...comments, ...spaces, ...spaceKeys, ...pages].map(
      (v) => v.toLowerCase(),
    ),
  );
  const from = (values: readonly string[]) => fc.constantFrom(...values);
  const jql = fc.constantFrom(
    "project = ENG",
    'project = ENG AND status = "To Do" ORDER BY created ASC',
    "assignee = currentUser()",
    "labels in (backend) OR priority = High",
    "text ~ runner",
    "key = ENG-1",
    "project = ",
    "ORDER BY",
  );
  const cql = fc.constantFrom(
    "type = page",
    'space = ENG AND title ~ "Home"',
    "label = reviewed",
    'text ~ "deploy"',
    "id = 3014657",
    "title ~",
    "type = user",
  );
  const text = fc.string({ minLength: 1, maxLength: 30 });
  const adf = text.map((t) => ({
    type: "doc",
    version: 1,
    content: [{ type: "paragraph", content: [{ type: "text", text: t }] }],
  }));
  // Jira's `fields` is an open map in the document; these are the fields a real client sets.
  const jiraFields = fc
    .record({
      summary: text,
      project: fc.oneof(
        from(projects).map((key) => ({ key })),
        from(projects).map((id) => ({ id })),
      ),
      issuetype: fc.oneof(
        from(issueTypeNames).map((name) => ({ name })),
        from(issueTypes).map((id) => ({ id })),
      ),
      description: fc.oneof(adf, text),
      labels: fc.array(fc.constantFrom("backend", "ci", "urgent", "ops"), { maxLength: 3 }),
      assignee: from(accounts).map((accountId) => ({ accountId })),
      priority: fc.constantFrom("High", "Medium", "Low").map((name) => ({ name })),
      keep: fc.array(fc.nat(9), { minLength: 7, maxLength: 7 }),
    })
    // The fields a create needs are there most of the time, the others some of the time.
    .map(({ keep, ...fields }) =>
      Object.fromEntries(Object.entries(fields).filter((_, i) => keep[i]! < (i < 3 ? 8 : 3))),
    );
  const byName: Record<string, fc.Arbitrary<unknown>> = {
    issueIdOrKey: from(issues),
    issueKey: from(issues),
    issueId: from(issues),
    projectIdOrKey: from(projects),
    projectKey: from(projects),
    project: from(projects),
    accountId: from(accounts),
    issueTypeId: from(issueTypes),
    spaceId: from(spaces),
    "space-id": from(spaces),
    pageId: from(pages),
    parentId: from(pages),
    spaceKey: from(spaceKeys),
    label: from(labels),
    prefix: fc.constantFrom("global", "my", "team"),
    permissions: fc.constantFrom("BROWSE_PROJECTS", "ASSIGNABLE_USER", "CREATE_ISSUES,EDIT_ISSUES"),
    url: fc.webUrl(),
    transition: fc.constantFrom("11", "21", "31", "41", "51").map((id) => ({ id })),
    number: fc.integer({ min: 1, max: 4 }),
    startAt: fc.nat(60),
    start: fc.nat(60),
    maxResults: fc.integer({ min: 1, max: 100 }),
    limit: fc.integer({ min: 1, max: 250 }),
    expand: fc.constantFrom(
      "renderedFields",
      "names",
      "transitions",
      "body.storage",
      "version",
      "space",
      "history",
    ),
    "body-format": fc.constantFrom("storage", "atlas_doc_format"),
    status: fc.constantFrom("current", "archived", "draft"),
    jql,
    cql,
  };
  return {
    forName(name, path, where) {
      if (name === "fields" && where === "body") return jiraFields;
      if (name === "fields")
        return fc.array(fc.constantFrom("summary", "status", "*all", "-comment", "labels"));
      if (name === "id") {
        if (/\/spaces\/\{id\}/.test(path)) return from(spaces);
        if (/\/comment\/\{id\}/.test(path)) return from(comments);
        if (/\/(pages|content)\/\{id\}/.test(path)) return from(pages);
        return fc.constantFrom(...pages, ...issues, ...spaces);
      }
      if (name === "status" && !path.startsWith("/wiki")) return undefined;
      if (name === "body" && where === "body" && path.startsWith("/rest/api/"))
        return path.startsWith("/rest/api/3/") ? adf : text;
      if (name === "space" && where === "body") return from(spaceKeys).map((key) => ({ key }));
      if (name === "key") return fc.constantFrom(...issues, ...projects, ...spaceKeys);
      if (name === "name" && path.includes("/label")) return from(labels);
      if (name === "name") return fc.constantFrom(...issueTypeNames, "Blocks", "Relates", "High");
      return byName[name];
    },
    badIds: fc
      .oneof(
        fc.constantFrom(
          "ENG-999999",
          "NOPE-1",
          "999999999",
          "0",
          "-1",
          "abc",
          "1.5",
          "%",
          "x y",
          "ünïcode",
          "🙂",
        ),
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.integer({ min: 900_000_000, max: 2_000_000_000 }).map(String),
      )
      .filter((id) => id.trim() !== "" && !known.has(id.toLowerCase())),
  };
}
