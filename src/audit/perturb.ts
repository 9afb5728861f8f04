/**
 * Seeded perturbations of a tool-call script, for reward audits: change one argument, swap two calls,
 * drop a call, or repeat one. Near misses like these are what a policy under RL pressure produces.
 */

import type { Script } from "../agent/scripted/replay.ts";
import type { Random } from "../sandbox/random.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";

export type PerturbationKind = "argument" | "reorder" | "drop" | "repeat";
export const PERTURBATIONS: readonly PerturbationKind[] = ["argument", "reorder", "drop", "repeat"];

export interface Perturbed {
  kind: PerturbationKind;
  description: string;
  script: Script;
}

export function perturb(script: Script, random: Random): Perturbed {
  const calls = script.calls.map((c) => structuredClone(c));
  if (calls.length === 0) return { kind: "repeat", description: "empty script", script };
  const kind = random.pick(PERTURBATIONS);
  const i = random.int(0, calls.length - 1);
  if (kind === "drop") {
    const [dropped] = calls.splice(i, 1);
    return { kind, description: `dropped call ${i + 1} (${dropped!.name})`, script: { ...script, calls } };
  }
  if (kind === "repeat") {
    calls.splice(i, 0, structuredClone(calls[i]!));
    return { kind, description: `repeated call ${i + 1} (${calls[i]!.name})`, script: { ...script, calls } };
  }
  if (kind === "reorder" && calls.length > 1) {
    const j = i === calls.length - 1 ? i - 1 : i + 1;
    [calls[i], calls[j]] = [calls[j]!, calls[i]!];
    return {
      kind,
      description: `swapped calls ${Math.min(i, j) + 1} and ${Math.max(i, j) + 1}`,
      script: { ...script, calls },
    };
  }
  const description = perturbArgument(calls[i]!, random);
  return {
    kind: "argument",
    description: `call ${i + 1} (${calls[i]!.name}): ${description}`,
    script: { ...script, calls },
  };
}

/** Changes one leaf value of a call's arguments in place; returns what it did. */
function perturbArgument(call: ToolCallRequest, random: Random): string {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const leaves = collectLeaves(args, []);
  if (leaves.length === 0) return "no arguments to change";
  const [path, value] = random.pick(leaves);
  const parent = path
    .slice(0, -1)
    .reduce<Record<string, unknown>>((obj, key) => obj[key] as Record<string, unknown>, args);
  const key = path.at(-1)!;
  const choice = random.int(0, 2);
  if (choice === 0) {
    delete parent[key];
    return `removed ${path.join(".")}`;
  }
  parent[key] = mutate(value, random);
  return `${path.join(".")}: ${JSON.stringify(value)} → ${JSON.stringify(parent[key])}`;
}

function mutate(value: unknown, random: Random): unknown {
  if (typeof value === "number") return value + random.int(1, 3);
  if (typeof value === "boolean") return !value;
  if (typeof value === "string") {
    if (/^\d+$/.test(value)) return String(Number(value) + random.int(1, 3));
    const variants = [
      value.toUpperCase(),
      `${value} (copy)`,
      value.slice(0, Math.max(1, value.length - 2)),
      value.replace(/\d/g, (d) => String((Number(d) + 1) % 10)),
    ];
    const changed = variants.filter((v) => v !== value);
    return changed.length > 0 ? random.pick(changed) : `${value}x`;
  }
  return null;
}

function collectLeaves(value: unknown, path: string[]): [string[], unknown][] {
  if (value === null || typeof value !== "object") return path.length > 0 ? [[path, value]] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => collectLeaves(v, [...path, k]));
}
