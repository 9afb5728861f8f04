/**
 * The reward engine on the holes issue 9 observed, and its invariants: exact values, unrequested fields,
 * visible text, outcome-judged transitions, R2 reads about the task, exact R3 labels, refusals, and the
 * rules every Expectation obeys (points sum to 1, plain JSON data, introduces required).
 */
import { describe, expect, it } from "vitest";
import { recordReference } from "../src/agent/scripted/replay.ts";
import { createEpisode } from "../src/env/episode.ts";
import type { Expectation } from "../src/reward/expectation.ts";
import { checkExpectation, ExpectationError } from "../src/reward/expectation-rules.ts";
import { score } from "../src/reward/score.ts";
import { defineScenario } from "../src/scenarios/define-scenario.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { findScenario, SCENARIOS } from "../src/scenarios/index.ts";
import { siteForTask } from "../src/scenarios/tasks.ts";
import { allToolNames } from "../src/tools/aliases/tool-sets.ts";
import type { ToolCallRequest } from "../src/tools/tool-call-result.ts";

type Args = Record<string, unknown>;

/** Plays the reference with its calls edited (`edit` returns the calls to make instead of one). */
function playEdited(id: string, index: number, edit: (c: ToolCallRequest) => ToolCallRequest[] = (c) => [c]) {
  const scenario = findScenario(id);
  const task = tasksFor(scenario, "eval")[index]!;
  const reference = recordReference(scenario, task);
  const episode = createEpisode(scenario, task);
  for (const c of reference.calls) for (const e of edit(structuredClone(c))) episode.step(e);
  episode.finish(reference.final);
  return episode.score();
}

const editCall = (name: string, change: (args: Args) => void) => (c: ToolCallRequest) => {
  if (c.name === name) change(c.arguments as Args);
  return [c];
};

describe("exact values and unrequested fields (jira-subtask-create)", () => {
  it("fails a summary in another case, and labels, a due date or another reporter nobody asked for", () => {
    const changes: ((f: Args) => void)[] = [
      (f) => {
        f.summary = String(f.summary).toUpperCase();
      },
      (f) => {
        f.labels = ["extra"];
      },
      (f) => {
        f.duedate = "2031-01-15";
      },
      (f) => {
        f.reporter = { accountId: (f.assignee as { accountId: string }).accountId };
      },
    ];
    for (const change of changes) {
      const s = playEdited(
        "jira-subtask-create-v1",
        0,
        editCall("jira_create_issue", (a) => change(a.fields as Args)),
      );
      expect(s.passed, s.explanation).toBe(false);
      expect(s.reward).toBeLessThan(0.8);
    }
  });
});

describe("visible text (confluence-page-create)", () => {
  const body = (value: string) =>
    editCall("confluence_create_page", (a) => {
      a.body = { representation: "storage", value };
    });
  const text = tasksFor(findScenario("confluence-page-create-v1"), "eval")[2]!.expected as { body: string };

  it("fails the first sentence only, an extra sentence, upper case and text hidden in a comment", () => {
    const first = text.body.split(". ")[0]!;
    for (const value of [
      `<p>${first}.</p>`,
      `<p>${text.body} And one more.</p>`,
      `<p>${text.body.toUpperCase()}</p>`,
      `<p>See below.</p><!-- ${text.body} -->`,
    ]) {
      const s = playEdited("confluence-page-create-v1", 2, body(value));
      expect(s.passed, value).toBe(false);
      expect(s.reward).toBeLessThan(0.8);
    }
  });

  it("passes the same text split into blocks or written as atlas_doc_format", () => {
    const [a, ...rest] = text.body.split(". ");
    const split = playEdited(
      "confluence-page-create-v1",
      2,
      body(`<h2>${a}.</h2>\n<p>  ${rest.join(". ")}</p>`),
    );
    expect(split.passed, split.explanation).toBe(true);
    const doc = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: text.body }] }],
    };
    const adf = playEdited(
      "confluence-page-create-v1",
      2,
      editCall("confluence_create_page", (args) => {
        args.body = { representation: "atlas_doc_format", value: JSON.stringify(doc) };
      }),
    );
    expect(adf.passed).toBe(true);
    expect(adf.reward).toBe(1);
  });
});

describe("paths judged by outcome (jira-transition)", () => {
  /** The reference with its transitions replaced by this route. */
  const route = (ids: string[]) => {
    let done = false;
    return (c: ToolCallRequest) => {
      if (c.name !== "jira_transition_issue") return [c];
      if (done) return [];
      done = true;
      const key = (c.arguments as Args).issueIdOrKey;
      return ids.map((id) => ({ name: c.name, arguments: { issueIdOrKey: key, transition: { id } } }));
    };
  };

  it("pays In Review → To Do by 21 then 11, and To Do by the detour 31 → 51", () => {
    const nine = playEdited("jira-transition-v1", 9, route(["21", "11"]));
    expect(nine.passed, nine.explanation).toBe(true);
    expect(nine.paperReward).toBeGreaterThanOrEqual(0.9);
    for (const index of [0, 8]) {
      const detour = playEdited("jira-transition-v1", index, route(["31", "51"]));
      expect(detour.passed, detour.explanation).toBe(true);
      expect(detour.paperReward).toBeGreaterThanOrEqual(0.9);
    }
  });
});

describe("R2 reads must be about the task (cross-product-page-link)", () => {
  it("does not count a search for a different issue as validation", () => {
    const scenario = findScenario("cross-product-page-link-v1");
    const task = tasksFor(scenario, "eval")[9]!;
    const e = task.expected as { issueKey: string };
    const reference = recordReference(scenario, task);
    const writes = reference.calls.findIndex((c) => c.name === "confluence_create_page");
    const other = [...siteForTask(scenario, task).values("issues")].find((i) => i.key !== e.issueKey)!;
    const search = {
      name: "jira_search_issues",
      arguments: { jql: `key = ${other.key}`, fields: ["summary"] },
    };
    const episode = createEpisode(scenario, task);
    for (const c of [search, ...reference.calls.slice(writes)]) episode.step(c);
    const s = episode.score();
    expect(s.components.find((c) => c.label === "validate before mutating")!.points, s.explanation).toBe(0);
  });
});

describe("R3 labels", () => {
  const codes = (calls: ToolCallRequest[]) => {
    const scenario = findScenario("jira-subtask-create-v1");
    const episode = createEpisode(scenario, tasksFor(scenario, "eval")[0]!);
    for (const c of calls) episode.step(c);
    return episode.score().violations.map((v) => v.code);
  };
  const fields = () =>
    structuredClone(
      recordReference(
        findScenario("jira-subtask-create-v1"),
        tasksFor(findScenario("jira-subtask-create-v1"), "eval")[0]!,
      ).calls.find((c) => c.name === "jira_create_issue")!.arguments as { fields: Args },
    ).fields;

  it("labels malformed JSON and a wrong type invalid_payload, an absent field dropped_required_field", () => {
    expect(codes([{ name: "jira_create_issue", arguments: '{"fields": {"summary": ' }])).toContain(
      "invalid_payload",
    );
    const wrongType = fields();
    wrongType.summary = 42;
    expect(codes([{ name: "jira_create_issue", arguments: { fields: wrongType } }])).toEqual([
      "missing_mutation",
      "invalid_payload",
    ]);
    const absent = fields();
    delete absent.summary;
    expect(codes([{ name: "jira_create_issue", arguments: { fields: absent } }])).toEqual([
      "missing_mutation",
      "dropped_required_field",
    ]);
  });
});

describe("refusal tasks", () => {
  const scenario = findScenario("jira-transition-v1");
  const task = tasksFor(scenario, "eval")[0]!;
  const site = siteForTask(scenario, task);
  const issueId = (task.expected as { issueId: string }).issueId;
  const refuse: Expectation = {
    entities: [],
    validate: [{ table: "issues", id: issueId }],
    refuse: "the status does not exist",
    refuseNames: ["Blocked"],
    budget: 5,
    points: { fields: 0.7, validate: 0.15, verify: 0.15 },
  };
  const look = {
    name: "jira_get_issue",
    arguments: { issueIdOrKey: issueId },
    operationId: "getIssue",
    effect: "read" as const,
    input: { params: { issueIdOrKey: issueId }, body: undefined },
    status: 200,
    ok: true,
    errorType: null,
    body: { id: issueId },
  };
  const run = (finalMessage: string | null, write: boolean, looked = true) => {
    const final = site.fork();
    if (write) final.put("issues", issueId, { ...site.get("issues", issueId)!, summary: "changed" });
    return score({
      expectation: refuse,
      calls: looked ? [look] : [],
      initial: site,
      final,
      reference: [],
      finalMessage,
      knownTools: allToolNames(),
    });
  };

  it("pays an unchanged site with a final answer after looking, and nothing for a write, a missing answer or a guess", () => {
    expect(run("The Blocked status does not exist, so I left the issue alone.", false)).toMatchObject({
      passed: true,
      paperReward: 1,
    });
    const guess = run("That status does not exist.", false, false);
    expect(guess).toMatchObject({ passed: false, paperReward: 0 });
    expect(guess.violations.map((v) => v.code)).toContain("missing_mutation");
    const wrote = run("Done.", true);
    expect(wrote.passed).toBe(false);
    expect(wrote.violations.map((v) => v.code)).toContain("collateral_change");
    expect(run(null, false, false)).toMatchObject({ passed: false, paperReward: 0 });
    expect(run(null, false).passed).toBe(false);
  });

  it("pays a decline only when the answer says it cannot be done, names what is missing and claims no success", () => {
    for (const answer of [
      "Done.",
      "I moved it to Blocked.",
      "That status does not exist, so I changed nothing.",
    ]) {
      const s = run(answer, false);
      expect(s.passed, answer).toBe(false);
      expect(s.paperReward, answer).toBeLessThanOrEqual(0.15);
      expect(
        s.violations.map((v) => v.code),
        answer,
      ).toEqual(["no_decline"]);
    }
    expect(run("There's no status called BLOCKED here; I can't move the issue.", false).passed).toBe(true);
  });
});

describe("expectation rules", () => {
  const base: Expectation = {
    entities: [
      {
        kind: "update",
        ref: "issue",
        label: "x",
        table: "issues",
        id: "1",
        fields: { statusId: { equals: "3" } },
      },
    ],
    validate: [],
    budget: 5,
    points: { fields: 0.7, validate: 0.15, verify: 0.15 },
  };

  it("throws when points do not sum to 1, a weight is unknown, a field earns nothing or data is not JSON", () => {
    expect(() =>
      checkExpectation({ ...base, points: { fields: 0.8, validate: 0.15, verify: 0.15 } }, "t"),
    ).toThrow(ExpectationError);
    expect(() => checkExpectation({ ...base, weights: { "issue.nope": 0.7 } }, "t")).toThrow(/unknown/);
    expect(() => checkExpectation({ ...base, weights: { "issue.statusId": 0.5 } }, "t")).toThrow(/sum/);
    const bad = {
      ...base,
      entities: [{ ...base.entities[0]!, fields: { statusId: { equals: Number.NaN } } }],
    } as Expectation;
    expect(() => checkExpectation(bad, "t")).toThrow(/JSON/);
    expect(() =>
      checkExpectation(
        { ...base, entities: [{ ...base.entities[0]!, fields: {} }] as Expectation["entities"] },
        "t",
      ),
    ).toThrow(/R1/);
    const refusal = { ...base, entities: [], refuse: "no such status" };
    expect(() => checkExpectation(refusal, "t")).toThrow(/refuseNames/);
    expect(() => checkExpectation({ ...refusal, refuseNames: [" "] }, "t")).toThrow(/refuseNames/);
    expect(() => checkExpectation({ ...base, refuseNames: ["Blocked"] }, "t")).toThrow(/refuseNames/);
    expect(checkExpectation({ ...refusal, refuseNames: ["Blocked"] }, "t").refuseNames).toEqual(["Blocked"]);
    expect(checkExpectation(base, "t")).toBe(base);
  });

  it("requires introduces() of every scenario, and gives every task a JSON-serialisable expectation", () => {
    const { introduces: _, ...rest } = findScenario("jira-transition-v1");
    expect(() => defineScenario(rest as never)).toThrow(/introduces/);
    for (const scenario of SCENARIOS)
      for (const task of tasksFor(scenario, "eval")) {
        const x = createEpisode(scenario, task).expectation;
        expect(JSON.parse(JSON.stringify(x))).toEqual(x);
        expect(Array.isArray(scenario.introduces(task.expected))).toBe(true);
      }
  });
});
