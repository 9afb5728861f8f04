/** Composed workflow expectations: bindings in place of created records, folds, conflicts, resolution. */
import { describe, expect, it } from "vitest";
import type { RecordChange } from "../sandbox/diff.ts";
import { resolveBindings } from "./bindings.ts";
import { CompositionError, composeExpectation } from "./compose-expectation.ts";
import type { Expectation } from "./expectation.ts";
import { checkExpectation } from "./expectation-rules.ts";

const points = { fields: 0.7, validate: 0.15, verify: 0.15 };
const create: Expectation = {
  entities: [
    {
      kind: "create",
      ref: "the new issue",
      label: "a bug",
      table: "issues",
      fields: { summary: { equals: "Crash" } },
    },
  ],
  validate: [{ table: "projects", id: "p1" }],
  budget: 6,
  points,
};
const assign = (id: string, field = "assigneeId"): Expectation => ({
  entities: [
    {
      kind: "update",
      ref: id,
      label: "assigned",
      table: "issues",
      id,
      fields: { [field]: { equals: "u1" } },
    },
  ],
  validate: [{ table: "issues", id }],
  budget: 5,
  points,
});
const comment = (issueId: string): Expectation => ({
  entities: [
    {
      kind: "create",
      ref: "the comment",
      label: "a comment",
      table: "comments",
      fields: { issueId: { equals: issueId } },
    },
  ],
  validate: [{ table: "issues", id: issueId }],
  budget: 6,
  points,
});
const produces = { as: "step1.issue", table: "issues" as const, id: "10050", key: "ENG-50" };

describe("composeExpectation", () => {
  const x = composeExpectation(
    [
      { scenario: "jira-create-issue-v1", expectation: create, produces },
      { scenario: "jira-assign-v1", expectation: assign("10050") },
      { scenario: "jira-comment-v1", expectation: comment("10050") },
    ],
    "test",
  );

  it("folds an update of the created record into its create, binds ids, derives budget and points", () => {
    const made = x.entities[0]!;
    expect(made.kind === "create" && made.as).toBe("step1.issue");
    expect(made.kind !== "delete" && Object.keys(made.fields)).toEqual(["summary", "assigneeId"]);
    expect(x.entities[1]!.kind !== "delete" && x.entities[1]!.fields).toEqual({
      issueId: { bound: "step1.issue.id" },
    });
    expect(x.budget).toBe(17);
    expect(x.steps!.map((s) => s.keys.length)).toEqual([1, 1, 1]);
    expect(x.steps![1]!.validate).toEqual([{ table: "issues", id: "step1.issue", bound: "step1.issue" }]);
    expect(() => checkExpectation(x, "test")).not.toThrow();
  });

  it("refuses two writes to one field of one record", () => {
    expect(() =>
      composeExpectation(
        [
          { scenario: "a-v1", expectation: assign("10007") },
          { scenario: "b-v1", expectation: assign("10007") },
        ],
        "test",
      ),
    ).toThrow(CompositionError);
  });

  it("resolves bindings to the record the agent created, so a comment on another issue fails", () => {
    const issue = (id: string, summary: string) =>
      ({
        kind: "created",
        table: "issues",
        id,
        after: { id, key: `ENG-${id}`, summary, assigneeId: "u1" },
      }) as unknown as RecordChange;
    const note = (issueId: string) =>
      ({
        kind: "created",
        table: "comments",
        id: "c1",
        after: { id: "c1", issueId },
      }) as unknown as RecordChange;
    const right = resolveBindings(x, [issue("10061", "Crash"), note("10061")]).expectation;
    const field = right.entities[1]!.kind !== "delete" ? right.entities[1]!.fields.issueId : undefined;
    expect(field).toEqual({ equals: "10061" });
    const none = resolveBindings(x, [note("10003")]).expectation;
    expect(none.entities[1]!.kind !== "delete" && none.entities[1]!.fields.issueId).toEqual({
      equals: "<no record for step1.issue>",
    });
  });
});
