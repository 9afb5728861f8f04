import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { type Json, rejected } from "../../../../test/support/jira-requests.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import type { Site } from "../../site.ts";

type Fields = Record<string, Json>;
type Transition = { id: string; name: string; to: { name: string }; fields?: Record<string, Json> };

const fieldsOf = (site: Site, key: string) =>
  (call(site, "getIssue", { issueIdOrKey: key }).body as { fields: Fields }).fields;
const transitionsOf = (site: Site, key: string, params: Record<string, unknown> = {}) =>
  (call(site, "getTransitions", { issueIdOrKey: key, ...params }).body as { transitions: Transition[] })
    .transitions;
const move = (site: Site, key: string, id: string, extra: object = {}) =>
  call(site, "doTransition", { issueIdOrKey: key }, { transition: { id }, ...extra });

/** A fresh site with a new To Do task; returns the site and the task's key. */
function withNewTask(): [Site, string] {
  const site = createSite({ seed: 1 });
  const res = call(
    site,
    "createIssue",
    {},
    {
      fields: { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "Workflow" },
    },
  );
  return [site, (res.body as { key: string }).key];
}

describe("getTransitions", () => {
  it("lists what the current status allows", () => {
    const [site, key] = withNewTask();
    const body = call(site, "getTransitions", { issueIdOrKey: key }).body as {
      expand: string;
      transitions: Transition[];
    };
    expect(body.expand).toBe("transitions");
    expect(body.transitions.map((t) => [t.id, t.name, t.to.name])).toEqual([
      ["21", "Start Progress", "In Progress"],
      ["31", "Done", "Done"],
    ]);
    expect(body.transitions[0]!.fields).toBeUndefined();
  });

  it("shows the resolution field of the Done screen with expand=transitions.fields", () => {
    const [site, key] = withNewTask();
    const [start, done] = transitionsOf(site, key, { expand: "transitions.fields" });
    expect(start!.fields).toEqual({});
    expect(done!.fields!.resolution).toMatchObject({
      key: "resolution",
      required: false,
      operations: ["set"],
    });
    expect(done!.fields!.resolution.allowedValues.map((r: { name: string }) => r.name)).toEqual([
      "Done",
      "Won't Do",
      "Duplicate",
      "Cannot Reproduce",
    ]);
  });

  it("filters by transitionId (empty when not available) and 404s unknown issues", () => {
    const [site, key] = withNewTask();
    expect(transitionsOf(site, key, { transitionId: "31" }).map((t) => t.id)).toEqual(["31"]);
    expect(transitionsOf(site, key, { transitionId: 41 })).toEqual([]);
    expect(call(site, "getTransitions", { issueIdOrKey: "ENG-9999" }).body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });
});

describe("doTransition", () => {
  it("walks To Do → In Progress → In Review, moving the category date only on category changes", () => {
    const [site, key] = withNewTask();
    const created = fieldsOf(site, key);
    expect(move(site, key, "21").status).toBe(204);
    const progress = fieldsOf(site, key);
    expect(progress.status.name).toBe("In Progress");
    expect(progress.statuscategorychangedate > created.statuscategorychangedate).toBe(true);
    expect(progress.updated > created.updated).toBe(true);
    expect(transitionsOf(site, key).map((t) => t.id)).toEqual(["11", "31", "41"]);
    move(site, key, "41");
    const review = fieldsOf(site, key);
    expect(review.status.name).toBe("In Review");
    expect(review.statuscategorychangedate).toBe(progress.statuscategorychangedate);
    expect(review.updated > progress.updated).toBe(true);
    expect(review.resolution).toBeNull();
  });

  it("resolves on Done (given or default) and clears the resolution on reopening", () => {
    const [site, key] = withNewTask();
    move(site, key, "31", {
      fields: { resolution: { name: "Won't Do" } },
      update: { comment: [{ add: { body: paragraphDoc("Not needed.") } }] },
    });
    const done = fieldsOf(site, key);
    expect(done.status.name).toBe("Done");
    expect(done.resolution.name).toBe("Won't Do");
    expect(done.resolutiondate).toBe(done.updated);
    expect(done.statuscategorychangedate).toBe(done.updated);
    expect(done.comment.comments.at(-1)).toMatchObject({ body: paragraphDoc("Not needed.") });
    expect(done.comment.comments.at(-1).author.accountId).toBe(AGENT_ACCOUNT_ID);
    expect(transitionsOf(site, key).map((t) => t.id)).toEqual(["51"]);

    move(site, key, "51");
    const reopened = fieldsOf(site, key);
    expect(reopened.status.name).toBe("To Do");
    expect(reopened.resolution).toBeNull();
    expect(reopened.resolutiondate).toBeNull();

    move(site, key, 31 as unknown as string, { fields: { resolution: { id: "10002" } } });
    expect(fieldsOf(site, key).resolution.name).toBe("Duplicate");
    move(site, key, "51");
    move(site, key, "31");
    expect(fieldsOf(site, key).resolution.name).toBe("Done");
  });

  it("answers bad transitions with Jira's bodies and changes nothing", () => {
    const [site, key] = withNewTask();
    expect(rejected(site, "doTransition", { issueIdOrKey: key }, {})).toEqual({
      errorMessages: ["Missing 'transition' identifier"],
      errors: {},
    });
    expect(rejected(site, "doTransition", { issueIdOrKey: key }, { transition: { id: "999" } })).toEqual({
      errorMessages: ["Transition id '999' is not valid for this issue."],
      errors: {},
    });
    expect(rejected(site, "doTransition", { issueIdOrKey: key }, { transition: { id: "41" } })).toEqual({
      errorMessages: ["Transition id '41' is not valid for this issue."],
      errors: {},
    });
    expect(
      rejected(site, "doTransition", { issueIdOrKey: "ENG-9999" }, { transition: { id: "21" } }, 404),
    ).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });

  it("accepts a resolution and comments only on the screen that has them", () => {
    const [site, key] = withNewTask();
    expect(
      rejected(
        site,
        "doTransition",
        { issueIdOrKey: key },
        { transition: { id: "21" }, fields: { resolution: { name: "Done" } } },
      ),
    ).toEqual({
      errorMessages: [],
      errors: {
        resolution: "Field 'resolution' cannot be set. It is not on the appropriate screen, or unknown.",
      },
    });
    expect(
      rejected(
        site,
        "doTransition",
        { issueIdOrKey: key },
        { transition: { id: "21" }, update: { comment: [{ add: { body: paragraphDoc("x") } }] } },
      ),
    ).toEqual({
      errorMessages: [],
      errors: { comment: "Field 'comment' cannot be set. It is not on the appropriate screen, or unknown." },
    });
    expect(
      rejected(
        site,
        "doTransition",
        { issueIdOrKey: key },
        { transition: { id: "31" }, fields: { resolution: { name: "Fixed" }, assignee: null } },
      ),
    ).toEqual({
      errorMessages: [],
      errors: {
        resolution: "The resolution selected is invalid.",
        assignee: "Field 'assignee' cannot be set. It is not on the appropriate screen, or unknown.",
      },
    });
    expect(
      rejected(
        site,
        "doTransition",
        { issueIdOrKey: key },
        { transition: { id: "31" }, fields: { resolution: "Done" } },
      ),
    ).toEqual({
      errorMessages: [],
      errors: { resolution: "data was not an object" },
    });
  });
});
