/**
 * Runs reward probes through real episodes (tool calls, or the REST facade's recordOperation path) and
 * judges each: a must-fail probe is a false pass when it passes the state check, earns more than 0.5
 * gated or 0.8 paper; a must-pass probe is a false fail when it fails or earns under 0.9 paper. Each
 * probe is judged twice: with every rule on, and with the second pass's rules off (the "before").
 */
import { recordReference } from "../agent/scripted/replay.ts";
import { createEpisode, type Episode } from "../env/episode.ts";
import { ALL_RULES_OFF, ALL_RULES_ON, type RulesOff } from "../reward/rules.ts";
import { executeOperation } from "../sandbox/execute.ts";
import { AGENT_ACCOUNT_ID, DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import { adfBodyToWiki } from "../sandbox/jira/rest-v2.ts";
import { executePresentation } from "../sandbox/presentation.ts";
import { PRESENTATIONS } from "../sandbox/presentations.ts";
import type { Scenario, Task } from "../scenarios/define-scenario.ts";
import { siteForTask } from "../scenarios/tasks.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { generateProbes, type Probe } from "./probes.ts";

export interface ProbeResult {
  task: string;
  kind: string;
  detail: string;
  must: "fail" | "pass";
  passed: boolean;
  paper: number;
  gated: number;
  /** Whether the reward judged the probe right. */
  ok: boolean;
  /** Whether it judged it right with the second pass's rules off (src/reward/rules.ts): the "before". */
  okBefore: boolean;
  /** A perturbed value the API normalised back to the expected one (same end state): not judged. */
  void: boolean;
  explanation: string;
}

export interface ProbeAudit {
  scenario: string;
  tasks: number;
  results: ProbeResult[];
  falsePasses: ProbeResult[];
  falseFails: ProbeResult[];
  /** Highest paper reward of a must-fail probe. */
  worstFailingPaper: number;
}

export function probeTask(scenario: Scenario, task: Task): ProbeResult[] {
  const site = siteForTask(scenario, task);
  const expectation = createEpisode(scenario, task, { initialSite: site }).expectation;
  const reference = recordReference(scenario, task);
  const expected = createEpisode(scenario, task, { initialSite: site });
  play(expected, { kind: "reference", detail: "", must: "pass", script: reference });
  const referenceState = expected.site.hash();
  return generateProbes(scenario, site, expectation, reference).map((probe) => {
    const episode = createEpisode(scenario, task, { initialSite: site });
    play(episode, probe);
    const isVoid = probe.value === true && episode.site.hash() === referenceState;
    const judge = (off: RulesOff) => {
      const paper = episode.score("paper", off);
      const gated = episode.score("gated", off).reward;
      const ok =
        isVoid ||
        (probe.must === "fail"
          ? !paper.passed && gated <= 0.5 && paper.paperReward < 0.8
          : paper.passed && paper.paperReward >= 0.9);
      return { paper, gated, ok };
    };
    const { paper, gated, ok } = judge(ALL_RULES_ON);
    return {
      task: task.id,
      kind: probe.kind,
      detail: probe.detail,
      must: probe.must,
      passed: paper.passed,
      paper: paper.paperReward,
      gated,
      ok,
      okBefore: judge(ALL_RULES_OFF).ok,
      void: isVoid,
      explanation: paper.explanation,
    };
  });
}

function play(episode: Episode, probe: Probe): void {
  const catalogue = defaultTools();
  const ctx = { baseUrl: DEFAULT_BASE_URL, accountId: AGENT_ACCOUNT_ID };
  for (const call of probe.script.calls) {
    const v2 = probe.surface === "jira-v2" ? jiraV2(catalogue.get(call.name)?.operation.operationId) : null;
    if (v2) {
      const tool = catalogue.get(call.name)!;
      const input = tool.toInput(structuredClone(call.arguments) as Record<string, unknown>, episode.site);
      const raw = { params: input.params, body: adfBodyToWiki(input.body) };
      const presented = executePresentation(episode.site, v2, raw, ctx);
      episode.recordOperation(tool.operation, presented.input, presented.result);
    } else if (probe.rest || probe.surface === "jira-v2") {
      const tool = catalogue.get(call.name)!;
      const input = tool.toInput(structuredClone(call.arguments) as Record<string, unknown>, episode.site);
      episode.recordOperation(
        tool.operation,
        input,
        executeOperation(episode.site, tool.operation, input, ctx),
      );
    } else episode.step(structuredClone(call), probe.catalogue ? catalogue : undefined);
  }
  episode.finish(probe.script.final);
}

/** The Jira REST v2 presentation of an operation (wiki markup for rich text), if it has one. */
function jiraV2(operationId: string | undefined) {
  return (
    PRESENTATIONS.find((p) => p.operationId === operationId && p.path.startsWith("/rest/api/2/")) ?? null
  );
}

export function probeScenario(scenario: Scenario, tasks: readonly Task[]): ProbeAudit {
  const results = tasks.flatMap((task) => probeTask(scenario, task));
  const failing = results.filter((r) => r.must === "fail" && !r.void);
  return {
    scenario: scenario.id,
    tasks: tasks.length,
    results,
    falsePasses: failing.filter((r) => !r.ok),
    falseFails: results.filter((r) => r.must === "pass" && !r.ok),
    worstFailingPaper: Math.max(0, ...failing.map((r) => r.paper)),
  };
}

/** Per probe class (kind and must): how many were judged, and how many judged wrong before and after. */
export interface ClassCount {
  kind: string;
  must: "fail" | "pass";
  probes: number;
  wrongBefore: number;
  wrongAfter: number;
}

/** Before/after counts per probe class over every scenario's probes (void probes are not judged). */
export function countByClass(audits: readonly ProbeAudit[]): ClassCount[] {
  const classes = new Map<string, ClassCount>();
  for (const r of audits.flatMap((a) => a.results).filter((r) => !r.void)) {
    const key = `${r.must}:${r.kind}`;
    const c = classes.get(key) ?? { kind: r.kind, must: r.must, probes: 0, wrongBefore: 0, wrongAfter: 0 };
    c.probes++;
    if (!r.okBefore) c.wrongBefore++;
    if (!r.ok) c.wrongAfter++;
    classes.set(key, c);
  }
  return [...classes.values()].sort(
    (a, b) => a.must.localeCompare(b.must) || b.wrongBefore - a.wrongBefore || a.kind.localeCompare(b.kind),
  );
}
