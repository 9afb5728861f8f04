/**
 * The fuzzer's seed and size. `ATLAS_FUZZ_SEED` replays a run (the seed is printed in the suite's name
 * and by fast-check with any counterexample); unset, the seed is fixed so CI is deterministic.
 * `ATLAS_FUZZ_RUNS` sets the runs per endpoint (default 80: about a minute for every endpoint here).
 */
export const DEFAULT_FUZZ_SEED = 20;
export const DEFAULT_FUZZ_RUNS = 80;

function integerFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

export const fuzzSeed = (): number => integerFrom("ATLAS_FUZZ_SEED", DEFAULT_FUZZ_SEED);
export const fuzzRuns = (): number => integerFrom("ATLAS_FUZZ_RUNS", DEFAULT_FUZZ_RUNS);
