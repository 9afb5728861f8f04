// pristineSite: one site per task, shared by the episodes on it, each of which still works on its own fork.
import { describe, expect, it } from "vitest";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { siteForTask } from "../scenarios/tasks.ts";
import { createEpisode } from "./episode.ts";
import { pristineSite } from "./pristine-sites.ts";

const scenario = findScenario("jira-transition-v1");
const [first, second] = tasksFor(scenario, "eval");

describe("pristineSite", () => {
  it("builds a task's site once and gives the same one again, equal to a fresh build", () => {
    const site = pristineSite(scenario, first!);
    expect(pristineSite(scenario, first!)).toBe(site);
    expect(pristineSite(scenario, second!)).not.toBe(site);
    expect(site.hash()).toBe(siteForTask(scenario, first!).hash());
  });

  it("episodes on one task share it and never change it: each writes only its own fork", () => {
    const before = pristineSite(scenario, first!).hash();
    const a = createEpisode(scenario, first!);
    const b = createEpisode(scenario, first!);
    const { issueKey, path } = first!.expected as { issueKey: string; path: string[] };
    const transition = { issueIdOrKey: issueKey, transition: { id: path[0] } };
    const done = a.step({ name: "jira_transition_issue", arguments: transition });
    expect(done.ok).toBe(true);
    expect(a.site.hash()).not.toBe(before);
    expect(b.site.hash()).toBe(before);
    expect(pristineSite(scenario, first!).hash()).toBe(before);
    expect(createEpisode(scenario, first!).score().reward).toBe(b.score().reward);
  });
});
