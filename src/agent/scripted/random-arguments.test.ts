import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { createEpisode } from "../../env/episode.ts";
import { createRandom } from "../../sandbox/random.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import { findPolicy } from "./policies.ts";
import { randomValue } from "./random-arguments.ts";

describe("random arguments from a tool's JSON Schema", () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);

  it("are valid against the schema of every tool each scenario offers, and vary with the seed", () => {
    for (const scenario of SCENARIOS) {
      const episode = createEpisode(scenario, tasksFor(scenario, "eval", 1)[0]!);
      for (const tool of episode.functionTools()) {
        const validate = ajv.compile(tool.function.parameters);
        const drawn = Array.from({ length: 20 }, (_, i) =>
          randomValue(tool.function.parameters, createRandom(`${tool.function.name}:${i}`)),
        );
        for (const args of drawn)
          expect(validate(args), `${tool.function.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        // A tool without parameters (e.g. jira_get_issue_link_types) has only one valid argument object.
        const hasParameters = Object.keys(tool.function.parameters.properties ?? {}).length > 0;
        if (hasParameters) expect(new Set(drawn.map((a) => JSON.stringify(a))).size).toBeGreaterThan(1);
      }
    }
  });

  it("keep to enums, consts, bounds and patterns", () => {
    const random = createRandom("bounds");
    for (let i = 0; i < 50; i++) {
      expect(["a", "b"]).toContain(randomValue({ enum: ["a", "b"] }, random));
      expect(randomValue({ const: 7 }, random)).toBe(7);
      const n = randomValue({ type: "integer", minimum: 3, maximum: 5 }, random) as number;
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
      expect(randomValue({ type: "string", pattern: "^\\d+$" }, random)).toMatch(/^\d+$/);
    }
  });

  it("policy:random calls only offered tools, with schema-valid arguments (no reference borrowed)", () => {
    const scenario = SCENARIOS[0]!;
    const task = tasksFor(scenario, "eval", 1)[0]!;
    const episode = createEpisode(scenario, task);
    const offered = new Map(episode.functionTools().map((t) => [t.function.name, t.function.parameters]));
    const script = findPolicy("random").script(episode, createRandom("policy-random"));
    expect(script.calls.length).toBeGreaterThan(0);
    for (const call of script.calls) {
      expect(offered.has(call.name)).toBe(true);
      expect(ajv.validate(offered.get(call.name)!, call.arguments)).toBe(true);
    }
  });
});
