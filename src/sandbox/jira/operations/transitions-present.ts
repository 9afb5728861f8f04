/** The Transitions shape of an issue: what its current status allows, with the resolution screen field. */
import { RESOLUTIONS, statusById, transitionsFrom } from "../catalog.ts";
import type { Issue } from "../model.ts";
import { presentStatus } from "../present.ts";

export function presentTransitions(
  base: string,
  issue: Issue,
  withFields: boolean,
): Record<string, unknown>[] {
  return transitionsFrom(issue.statusId).map((t) => {
    const item: Record<string, unknown> = {
      id: t.id,
      name: t.name,
      to: presentStatus(base, statusById(t.to)!),
      hasScreen: t.resolutionScreen,
      isGlobal: false,
      isInitial: false,
      isAvailable: true,
      isConditional: false,
      isLooped: false,
    };
    if (withFields) {
      item.fields = t.resolutionScreen
        ? {
            resolution: {
              required: false,
              schema: { type: "resolution", system: "resolution" },
              name: "Resolution",
              key: "resolution",
              operations: ["set"],
              allowedValues: RESOLUTIONS.map((r) => ({
                self: `${base}/rest/api/3/resolution/${r.id}`,
                id: r.id,
                name: r.name,
                description: r.description,
              })),
              hasDefaultValue: true,
            },
          }
        : {};
    }
    return item;
  });
}
