import { describe, expect, it } from "vitest";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { siteForTask } from "../scenarios/tasks.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import { createEpisode } from "./episode.ts";
import { taskTools } from "./offered-tools.ts";
import { createRepeatReads } from "./repeat-reads.ts";

const scenario = findScenario("jira-transition-v1");
const task = tasksFor(scenario, "eval", 1)[0]!;
const READ: ToolCallRequest = {
  name: "jira_get_issue",
  arguments: { issueIdOrKey: "ENG-1", fields: ["status"] },
};

describe("repeated reads in an episode", () => {
  it("answers a repeat like the first call, in its own trace record", () => {
    const episode = createEpisode(scenario, task);
    const first = episode.step(READ);
    const again = episode.step({ ...READ, arguments: { issueIdOrKey: "ENG-1", fields: ["status"] } });
    expect(first.ok).toBe(true);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(episode.calls).toEqual([first, again]);
  });

  it("records a repeat's JSON-text arguments parsed, as a first call does", () => {
    const episode = createEpisode(scenario, task);
    const text = { name: "jira_get_issue", arguments: '{"issueIdOrKey":"ENG-1"}' };
    const first = episode.step(text);
    const again = episode.step(text);
    expect(again.arguments).toEqual({ issueIdOrKey: "ENG-1" });
    expect(again.arguments).not.toBe(first.arguments);
    expect(again).toEqual(first);
  });

  it("answers from the site as it is after a write", () => {
    const episode = createEpisode(scenario, task);
    const before = episode.step(READ);
    const moved = episode.step({
      name: "jira_transition_issue",
      arguments: { issueIdOrKey: "ENG-1", transition: { id: "21" } },
    });
    expect(moved.ok).toBe(true);
    const after = episode.step(READ);
    expect(JSON.parse(before.observation).fields.status.name).toBe("To Do");
    expect(JSON.parse(after.observation).fields.status.name).toBe("In Progress");
  });
});

describe("reads shared by the episodes of one task", () => {
  it("answers a read another episode of the task made before either changed its site", () => {
    const first = createEpisode(scenario, task).step(READ);
    const second = createEpisode(scenario, task).step(READ);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it("never answers from another episode's changed site, nor one episode from its own old state", () => {
    const writer = createEpisode(scenario, task);
    const reader = createEpisode(scenario, task);
    expect(JSON.parse(reader.step(READ).observation).fields.status.name).toBe("To Do");
    const moved = writer.step({
      name: "jira_transition_issue",
      arguments: { issueIdOrKey: "ENG-1", transition: { id: "21" } },
    });
    expect(moved.ok).toBe(true);
    expect(JSON.parse(writer.step(READ).observation).fields.status.name).toBe("In Progress");
    expect(JSON.parse(reader.step(READ).observation).fields.status.name).toBe("To Do");
    expect(JSON.parse(createEpisode(scenario, task).step(READ).observation).fields.status.name).toBe("To Do");
  });
});

describe("createRepeatReads", () => {
  it("shares reads between forks of one pristine site while they are unchanged, per tool and base URL", () => {
    const pristine = siteForTask(scenario, task);
    const scope = { pristine, revision: pristine.revision, baseUrl: "https://a.example" };
    const tools = taskTools(scenario);
    let runs = 0;
    const run = (): ToolCallResult => ({
      name: "jira_get_issue",
      arguments: {},
      operationId: "getIssue",
      effect: "read",
      input: null,
      status: 200,
      ok: true,
      errorType: null,
      body: null,
      observation: `run ${++runs}`,
    });
    const answer = (scoped: typeof scope, offered = tools, site = pristine.fork()) =>
      createRepeatReads(offered, scoped).answer(site, offered, READ, run).observation;
    expect(answer(scope)).toBe("run 1");
    expect(answer(scope)).toBe("run 1");
    // Another base URL words its answers otherwise; another pristine site (or the same one at another
    // revision) is another state; another tool object under the same name may answer otherwise.
    expect(answer({ ...scope, baseUrl: "https://b.example" })).toBe("run 2");
    const other = siteForTask(scenario, task);
    expect(answer({ pristine: other, revision: other.revision, baseUrl: scope.baseUrl })).toBe("run 3");
    expect(answer({ ...scope, revision: pristine.revision + 1 })).toBe("run 4");
    const tool = tools.get(READ.name)!;
    expect(answer(scope, new Map([...tools, [READ.name, { ...tool }]]))).toBe("run 5");
    // A fork that has changed is no longer the pristine state: it neither reads nor fills the shared tier.
    const changed = pristine.fork();
    changed.transact((draft) => draft.tick(1));
    expect(answer(scope, tools, changed)).toBe("run 6");
    expect(answer(scope)).toBe("run 1");
    // Without a scope nothing is shared.
    expect(createRepeatReads(tools).answer(pristine.fork(), tools, READ, run).observation).toBe("run 7");
  });

  it("keeps reads of the offered tools that ran an operation, and nothing else", () => {
    const site = siteForTask(scenario, task).fork();
    const tools = taskTools(scenario);
    const repeats = createRepeatReads(tools);
    let runs = 0;
    const run = (status: number | null) => (): ToolCallResult => {
      runs++;
      return {
        name: "jira_get_issue",
        arguments: {},
        operationId: "getIssue",
        effect: "read",
        input: null,
        status,
        ok: status === 200,
        errorType: status === 200 ? null : "invalid_args",
        body: null,
        observation: `run ${runs}`,
      };
    };
    expect(repeats.answer(site, tools, READ, run(200)).observation).toBe("run 1");
    expect(repeats.answer(site, tools, READ, run(200)).observation).toBe("run 1");
    expect(runs).toBe(1);
    // Another tool map (an alias tool set) is never answered from the kept reads.
    repeats.answer(site, new Map(tools), READ, run(200));
    expect(runs).toBe(2);
    // A write tool runs every time.
    const write = {
      name: "jira_transition_issue",
      arguments: { issueIdOrKey: "ENG-1", transition: { id: "21" } },
    };
    repeats.answer(site, tools, write, run(204));
    repeats.answer(site, tools, write, run(204));
    expect(runs).toBe(4);
    // A call that ran no operation (arguments that did not parse) is not kept.
    const bad = { name: "jira_get_issue", arguments: "{not json" };
    repeats.answer(site, tools, bad, run(null));
    repeats.answer(site, tools, bad, run(null));
    expect(runs).toBe(6);
    // Any change to the site drops what was kept.
    site.transact((draft) => draft.tick(1));
    repeats.answer(site, tools, READ, run(200));
    expect(runs).toBe(7);
  });
});
