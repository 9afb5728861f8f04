/**
 * Alias solutions: a scenario's hand-written solutions through the alias tool sets (Rovo and
 * mcp-atlassian, src/tools/aliases), the counterparts of its reference solution (which yields
 * default-catalogue calls). Like the reference they read what the prompt names, look ids up with the
 * set's own tools, mutate, and verify. They use only `ok` and `body` of each answer, so the same
 * generator drives an in-process episode or an MCP client over stdio or HTTP.
 *
 * A scenario declares them next to its reference, in its folder's `alias-solutions.ts`, as
 * `aliasSolutions: { rovo?, "mcp-atlassian"? }`: one for each set that covers it. Which sets cover it is
 * not declared anywhere: it is derived from the operations it needs (tools/aliases/tool-sets.ts), and a
 * test checks a scenario has a solution exactly for the sets that cover it. A set whose tools translate
 * the reference's calls one by one takes `"translate"` (alias-translate.ts) instead of a hand-written
 * solution; `aliasSolution` gives the runnable one either way. The helpers below are shared by the
 * scenarios' solutions.
 *
 * mcp-atlassian has no tool that lists Confluence spaces: like the real server's users, its solutions
 * find a space named only by its name with confluence_search (CQL `type = space AND space.title = ...`).
 */
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";
import { translated } from "./alias-translate.ts";
import { call, type Scenario, type Task } from "./define-scenario.ts";

/** What a solution sees of each answer. */
export interface Answer {
  ok: boolean;
  body: unknown;
}

export type AliasSolution = Generator<ToolCallRequest, string, Answer>;

/** The tool sets other than atlas-gym's own catalogue (whose solution is the scenario's reference). */
export type AliasSetName = Exclude<ToolSetName, "default">;

/**
 * A solution's signature, declared as a method so that it is bivariant in the task's expected values:
 * a `Scenario<E>` stays assignable to the registry's `Scenario` without a cast.
 */
type Solve<E> = { solve(task: Task<E>): AliasSolution }["solve"];

/** A scenario's alias solutions, one per set that covers it: hand-written, or its reference translated. */
export type AliasSolutions<E> = { readonly [S in AliasSetName]?: Solve<E> | "translate" };

/** The solution of `task` through `set`, when its scenario declares one. */
export function aliasSolution(scenario: Scenario, set: AliasSetName, task: Task): AliasSolution | undefined {
  const declared = scenario.aliasSolutions?.[set];
  if (declared === "translate") return translated(set, scenario.reference(task));
  return declared?.(task);
}

/** The `cloudId` Rovo's tools take (accepted and ignored by the simulation). */
export const CLOUD_ID = "https://atlas-gym.atlassian.net";

/** The final message of a solution that declines a task that cannot be done, after looking: it names what is missing. */
export const declined = (missing: string): string =>
  `I did not change anything: the task cannot be done as asked, as there is no ${missing}.`;

export type Results<T> = { results: T[] };
export type Space = { id: string; key: string; name: string };
export type Users = { accountId: string; displayName: string }[];
type Issues = { issues: { key: string; fields: { summary: string } }[] };

/** What a Jira task names of its issue: its key, or its summary in a project (by key or name). */
export interface IssueRef {
  byKey: boolean;
  issueKey?: string;
  parentKey?: string;
  summary?: string;
  parentSummary?: string;
  projectKey?: string;
  projectName?: string;
}

/**
 * The key of the issue a Jira task names by summary, found with the set's JQL search tool `name` (or
 * given by key). `flat`: mcp-atlassian's comma-separated `fields` and no `cloudId`.
 */
export function* findIssueKey(
  name: string,
  e: IssueRef,
  flat: boolean,
): Generator<ToolCallRequest, string, Answer> {
  const known = e.issueKey ?? e.parentKey;
  if (e.byKey && known) return known;
  const summary = (e.parentSummary ?? e.summary)!;
  const project = e.projectKey ?? `"${e.projectName}"`;
  const jql = `project = ${project} AND summary ~ "${summary.replace(/"/g, '\\"')}"`;
  const found = yield call(
    name,
    flat ? { jql, fields: "summary" } : { cloudId: CLOUD_ID, jql, fields: ["summary"] },
  );
  return (found.body as Issues).issues.find((i) => i.fields.summary === summary)!.key;
}

/** The key of a Confluence space the prompt names by key or only by name (mcp-atlassian's CQL search). */
export function* findSpaceKey(
  e: { spaceKey: string; spaceName: string },
  byName: boolean,
): Generator<ToolCallRequest, string, Answer> {
  if (!byName) return e.spaceKey;
  const cql = `type = space AND space.title = "${e.spaceName.replace(/"/g, '\\"')}"`;
  const found: Answer = yield call("confluence_search", { query: cql });
  const results = (found.body as Results<{ space?: { key: string; name: string } }>).results;
  return results.find((r) => r.space?.name === e.spaceName)!.space!.key;
}

/** The Confluence space a task names by key (`byKey`) or only by name, through Rovo's getConfluenceSpaces. */
export function* findRovoSpace(
  e: { spaceKey: string; spaceName: string },
  byKey: boolean,
): Generator<ToolCallRequest, Space, Answer> {
  const spaces: Answer = yield call(
    "getConfluenceSpaces",
    byKey ? { cloudId: CLOUD_ID, keys: [e.spaceKey] } : { cloudId: CLOUD_ID },
  );
  return (spaces.body as Results<Space>).results.find((s) =>
    byKey ? s.key === e.spaceKey : s.name === e.spaceName,
  )!;
}
