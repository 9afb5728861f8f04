/**
 * getFields: the system fields the site models, with their schema, JQL clause names and
 * navigable/orderable/searchable flags (pycontribs `jira` maps field names to ids from clauseNames).
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { FIELD_NAMES } from "../fields.ts";

interface FieldShape {
  /** JsonTypeBean type, and `items` for arrays; absent for fields without a schema (issuekey, parent). */
  type?: string;
  items?: string;
  clauseNames: string[];
  orderable?: boolean;
  navigable?: boolean;
  searchable?: boolean;
}

const FIELDS: Record<string, FieldShape> = {
  issuekey: { clauseNames: ["id", "issue", "issuekey", "key"], orderable: false, searchable: false },
  summary: { type: "string", clauseNames: ["summary"] },
  description: { type: "string", clauseNames: ["description"] },
  environment: { type: "string", clauseNames: ["environment"] },
  issuetype: { type: "issuetype", clauseNames: ["issuetype", "type"] },
  project: { type: "project", clauseNames: ["project"] },
  status: { type: "status", clauseNames: ["status"], orderable: false },
  priority: { type: "priority", clauseNames: ["priority"] },
  assignee: { type: "user", clauseNames: ["assignee"] },
  reporter: { type: "user", clauseNames: ["reporter"] },
  creator: { type: "user", clauseNames: ["creator"], orderable: false },
  created: { type: "datetime", clauseNames: ["created", "createdDate"], orderable: false },
  updated: { type: "datetime", clauseNames: ["updated", "updatedDate"], orderable: false },
  statuscategorychangedate: {
    type: "datetime",
    clauseNames: ["statusCategoryChangedDate"],
    orderable: false,
  },
  resolution: { type: "resolution", clauseNames: ["resolution"] },
  resolutiondate: { type: "datetime", clauseNames: ["resolutiondate", "resolved"], orderable: false },
  labels: { type: "array", items: "string", clauseNames: ["labels"] },
  duedate: { type: "date", clauseNames: ["due", "duedate"] },
  subtasks: { type: "array", items: "issuelinks", clauseNames: ["subtasks"], orderable: false },
  issuelinks: { type: "array", items: "issuelinks", clauseNames: ["issueLink"] },
  comment: { type: "comments-page", clauseNames: ["comment"] },
  components: { type: "array", items: "component", clauseNames: ["component"] },
  fixVersions: { type: "array", items: "version", clauseNames: ["fixVersion"] },
  versions: { type: "array", items: "version", clauseNames: ["affectedVersion"] },
  attachment: { type: "array", items: "attachment", clauseNames: ["attachments"] },
  watches: { type: "watches", clauseNames: ["watchers"], orderable: false },
  parent: { clauseNames: ["parent"], orderable: false },
};

const NAMES: Record<string, string> = { ...FIELD_NAMES, issuekey: "Key" };

export const getFields = defineOperation({
  operationId: "getFields",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/field",
  summary: "Lists the issue fields (system fields): id, name, schema and JQL clause names.",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: () =>
    Object.entries(FIELDS).map(([id, f]) => ({
      id,
      key: id,
      name: NAMES[id] ?? id,
      custom: false,
      orderable: f.orderable ?? true,
      navigable: f.navigable ?? true,
      searchable: f.searchable ?? true,
      clauseNames: f.clauseNames,
      ...(f.type ? { schema: { type: f.type, ...(f.items ? { items: f.items } : {}), system: id } } : {}),
    })),
});

export const FIELD_LIST_OPERATIONS: readonly Operation[] = [getFields];
