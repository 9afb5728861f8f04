/**
 * The create-screen fields of an issue type (FieldCreateMetadata), as getCreateIssueMetaIssueTypeId
 * lists them: what createIssue accepts for that type, which fields are required, their allowed values
 * and defaults. Kept in step with the rules in issue-fields.ts.
 */
import { DEFAULT_PRIORITY_ID, PRIORITIES } from "./catalog.ts";
import type { IssueType, Project } from "./model.ts";
import { presentIssueType, presentPriority, presentProjectRef } from "./present.ts";

type Json = Record<string, unknown>;

function field(
  id: string,
  name: string,
  required: boolean,
  schema: Json,
  operations: string[],
  extra: Json = {},
): Json {
  return { fieldId: id, key: id, name, required, schema, operations, hasDefaultValue: false, ...extra };
}

/** The fields of the create screen for `type` in `project`, in screen order. */
export function createMetaFields(base: string, project: Project, type: IssueType): Json[] {
  const fields: Json[] = [
    field("summary", "Summary", true, { type: "string", system: "summary" }, ["set"]),
    field("issuetype", "Issue Type", true, { type: "issuetype", system: "issuetype" }, [], {
      allowedValues: [presentIssueType(base, type)],
    }),
  ];
  if (type.subtask)
    fields.push(field("parent", "Parent", true, { type: "issuelink", system: "parent" }, ["set"]));
  fields.push(
    field("project", "Project", true, { type: "project", system: "project" }, ["set"], {
      allowedValues: [presentProjectRef(base, project)],
    }),
    field("reporter", "Reporter", true, { type: "user", system: "reporter" }, ["set"], {
      autoCompleteUrl: `${base}/rest/api/3/user/search?query=`,
      hasDefaultValue: true,
    }),
    field("assignee", "Assignee", false, { type: "user", system: "assignee" }, ["set"], {
      autoCompleteUrl: `${base}/rest/api/3/user/assignable/search?project=${project.key}&query=`,
      hasDefaultValue: true,
    }),
    field("priority", "Priority", false, { type: "priority", system: "priority" }, ["set"], {
      allowedValues: PRIORITIES.map((p) => presentPriority(base, p.id)),
      hasDefaultValue: true,
      defaultValue: presentPriority(base, DEFAULT_PRIORITY_ID),
    }),
    field(
      "labels",
      "Labels",
      false,
      { type: "array", items: "string", system: "labels" },
      ["add", "set", "remove"],
      {
        autoCompleteUrl: `${base}/rest/api/1.0/labels/suggest?query=`,
      },
    ),
    field("description", "Description", false, { type: "string", system: "description" }, ["set"]),
    field("duedate", "Due date", false, { type: "date", system: "duedate" }, ["set"]),
    field("environment", "Environment", false, { type: "string", system: "environment" }, ["set"]),
  );
  return fields;
}
