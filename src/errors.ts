/**
 * Framework errors (not API errors, which are data for the agent): a flat hierarchy, each with the
 * identifiers that explain it in its message.
 */

/** Base of every atlas-gym framework error. */
export class AtlasGymError extends Error {
  override name = "AtlasGymError";
}

/** Thrown when a scenario id is not registered. */
export class ScenarioNotFoundError extends AtlasGymError {
  override name = "ScenarioNotFoundError";
  constructor(
    readonly id: string,
    known: readonly string[],
  ) {
    super(`Scenario "${id}" not found (known: ${known.join(", ")})`);
  }
}

/** Thrown when user input to a command or API (flags, config files) is invalid. */
export class UsageError extends AtlasGymError {
  override name = "UsageError";
}
