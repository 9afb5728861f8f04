/**
 * Boolean query parameters are read as Jira reads them (`true` in any case is true, any other value is
 * false, the first of a repeated parameter counts), never answered with a 400: every boolean query
 * parameter the Jira spec declares on an operation the site serves, and the effect on the answer over REST.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/sandbox/operations.ts";
import { createConformanceApp } from "./support/conformance-app.ts";

const spec = JSON.parse(
  readFileSync(new URL("../specs/jira-platform-v3.openapi.json", import.meta.url), "utf8"),
);
interface SpecParameter {
  name: string;
  in: string;
  schema?: { type?: string };
}

/** [operationId, parameter] for every boolean query parameter the spec gives a served Jira operation. */
const BOOLEANS = OPERATIONS.filter((op) => op.api === "jira").flatMap((op) => {
  const params: SpecParameter[] = spec.paths[op.path]?.[op.method.toLowerCase()]?.parameters ?? [];
  return params
    .filter((p) => p.in === "query" && p.schema?.type === "boolean")
    .map((p) => [op, p.name] as const);
});

const PATH_PARAMS = { issueIdOrKey: "ENG-1", id: "10200" };
const { call, violations } = createConformanceApp("bools");

describe("Jira boolean query parameters", () => {
  it("covers the parameters the fuzzer named", () => {
    const names = BOOLEANS.map(([op, name]) => `${op.operationId}.${name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "getIssue.updateHistory",
        "getTransitions.includeUnavailableTransitions",
        "getTransitions.sortByOpsBarAndStatus",
        "editIssue.returnIssue",
      ]),
    );
  });

  it.each([
    ["TRUE", true],
    ["True", true],
    ["true", true],
    ["false", false],
    ["FALSE", false],
    ["yes", false],
    ["1", false],
    ["", false],
    [["True", "false"], true],
    [["no", "true"], false],
  ] as const)("%j reads as %s on every operation", (value, expected) => {
    for (const [op, name] of BOOLEANS) {
      const parsed = op.params.safeParse({ ...PATH_PARAMS, [name]: value });
      expect(parsed.success, `${op.operationId}.${name}`).toBe(true);
      const read = (parsed.data as Record<string, unknown>)[name];
      // A parameter the site does not use is dropped (undefined); one it uses reads as Jira reads it.
      if (read !== undefined) expect(read, `${op.operationId}.${name}`).toBe(expected);
    }
  });

  it("answers over REST, and the value decides what the operation does", async () => {
    for (const query of [
      "includeUnavailableTransitions=yes",
      "sortByOpsBarAndStatus=1&sortByOpsBarAndStatus=x",
    ]) {
      const res = await call("GET", `/rest/api/3/issue/ENG-1/transitions?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.transitions.length).toBeGreaterThan(0);
    }
    expect((await call("GET", "/rest/api/2/issue/ENG-1?updateHistory=YES&fields=summary")).status).toBe(200);
    const edit = (flag: string) =>
      call("PUT", `/rest/api/3/issue/ENG-1?returnIssue=${flag}`, { fields: { summary: `Edited ${flag}` } });
    const returned = await edit("TRUE");
    expect(returned.status).toBe(200);
    expect(returned.body.fields.summary).toBe("Edited TRUE");
    const quiet = await edit("yes");
    expect(quiet.status).toBe(204);
    expect(quiet.body).toBeNull();
    expect(violations).toEqual([]);
  });

  it("still refuses a value a tool sends that is neither a boolean nor a string", () => {
    const [op, name] = BOOLEANS.find(([, n]) => n === "returnIssue")!;
    expect(op.params.safeParse({ ...PATH_PARAMS, [name]: 1 }).success).toBe(false);
    expect(op.params.safeParse({ ...PATH_PARAMS, [name]: true }).data).toMatchObject({ [name]: true });
  });
});
