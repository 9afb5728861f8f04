/** The Transitions shape of an issue: what its current status allows, with the resolution screen field. */
import { DEFAULT_RESOLUTION_ID, RESOLUTIONS, statusById, transitionsFrom } from "../catalog.ts";
import type { Issue } from "../model.ts";
import { presentResolution, presentStatus } from "../present.ts";

export interface PresentedTransition extends Record<string, unknown> {
  id: string;
}

export function presentTransitions(base: string, issue: Issue, withFields: boolean): PresentedTransition[] {
  return transitionsFrom(issue.statusId).map((t) => {
    const item: PresentedTransition = {
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
    if (withFields) item.fields = t.resolutionScreen ? { resolution: resolutionField(base) } : {};
    return item;
  });
}

/** The resolution field of a transition screen (FieldMetadata). */
function resolutionField(base: string): Record<string, unknown> {
  return {
    required: false,
    schema: { type: "resolution", system: "resolution" },
    name: "Resolution",
    key: "resolution",
    operations: ["set"],
    allowedValues: RESOLUTIONS.map((r) => presentResolution(base, r.id)),
    hasDefaultValue: true,
    defaultValue: presentResolution(base, DEFAULT_RESOLUTION_ID),
  };
}
