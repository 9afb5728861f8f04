/**
 * The zod schema of Jira's IssueUpdateDetails body (createIssue, editIssue, doTransition). It stays as
 * permissive as the real API: field values are checked by the handlers, which answer with Jira's own
 * messages, and the descriptions tell an agent the shape each field takes and where values come from.
 */
import { z } from "zod";

/**
 * A field whose value the handler checks (so that bad values get Jira's own messages). `shape` is the
 * JSON Schema the value takes; it goes into the agent's tool schema so nested arguments stay visible.
 */
const field = (text: string, shape: Record<string, unknown> = {}) =>
  z
    .unknown()
    .optional()
    .meta({ description: text, ...shape });

const str = { type: "string" };
const ref = (...keys: string[]) => ({
  type: "object",
  properties: Object.fromEntries(keys.map((k) => [k, str])),
});
const adf = {
  type: "object",
  properties: {
    type: { const: "doc" },
    version: { const: 1 },
    content: { type: "array", items: { type: "object" } },
  },
  required: ["type", "version", "content"],
};

/** `fields` of a create or edit request, keyed by field id. */
export const issueFieldsSchema = z
  .looseObject({
    project: field(
      'Project reference: {"key":"ENG"} or {"id":"10000"} (from getProject / searchProjects).',
      ref("key", "id"),
    ),
    issuetype: field(
      'Issue type reference: {"name":"Task"} or {"id":"10002"}. Issue types belong to a project and their names differ between projects (e.g. the sub-task type); list them with getCreateIssueMetaIssueTypes.',
      ref("id", "name"),
    ),
    summary: field("One-line title (string, fewer than 255 characters). Required on create.", str),
    parent: field(
      'Parent issue: {"key":"ENG-12"} or {"id":"10012"}. Required for sub-task issue types; the parent must be a standard issue of the same project.',
      ref("key", "id"),
    ),
    assignee: field(
      'User to assign: {"accountId":"..."} with an accountId from findUsers / findAssignableUsers; null for unassigned; {"accountId":"-1"} for the project default.',
    ),
    reporter: field('Reporter: {"accountId":"..."}; defaults to the caller.', ref("accountId")),
    priority: field(
      'Priority: {"name":"High"} or {"id":"2"}; one of Highest, High, Medium (default), Low, Lowest.',
      ref("name", "id"),
    ),
    labels: field(
      'Labels: an array of strings without spaces, e.g. ["backend","urgent"]; replaces all labels.',
      { type: "array", items: str },
    ),
    description: field(
      'Description as an Atlassian Document Format document, e.g. {"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"..."}]}]}; null clears it.',
    ),
    environment: field("Environment as an Atlassian Document Format document; null clears it.", adf),
    duedate: field('Due date "YYYY-MM-DD"; null clears it.', str),
  })
  .describe("Field values keyed by field id. A field may appear in `fields` or in `update`, not both.");

const fieldOperation = z
  .record(z.string(), z.unknown())
  .describe('One operation: {"set": value}, or for labels {"add": "x"} / {"remove": "x"}.');

/** `update`: field id → list of operations. */
export const issueUpdateOperationsSchema = z
  .record(z.string(), z.array(fieldOperation))
  .describe(
    'Incremental changes keyed by field id, each a list of operations, e.g. {"labels":[{"add":"triaged"},{"remove":"blocker"}],"summary":[{"set":"New title"}],"comment":[{"add":{"body":ADF}}]}. Parent may be removed with {"parent":[{"set":{"none":true}}]}.',
  );

const transitionSchema = z
  .looseObject({
    id: z
      .union([z.string(), z.number()])
      .optional()
      .describe("Transition id from getTransitions (transitions are per current status)."),
  })
  .describe('The workflow transition to perform: {"id":"21"}.');

/** The IssueUpdateDetails body. */
export const issueUpdateDetailsSchema = z.looseObject({
  fields: issueFieldsSchema.optional(),
  update: issueUpdateOperationsSchema.optional(),
  transition: transitionSchema.optional(),
  properties: z.array(z.unknown()).optional().describe("Issue properties (accepted and ignored)."),
  historyMetadata: z.unknown().optional().describe("History metadata (accepted and ignored)."),
});

export type IssueUpdateDetails = z.output<typeof issueUpdateDetailsSchema>;

/** The transition id of a body as a string, if it names one. */
export function transitionIdOf(body: IssueUpdateDetails): string | undefined {
  const id = body.transition?.id;
  return id === undefined ? undefined : String(id);
}
