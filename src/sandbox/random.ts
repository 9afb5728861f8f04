/**
 * Seeded pseudo-random numbers for fixtures and task generators (mulberry32).
 * The sandbox never touches Math.random(): every draw comes from a generator built from a seed.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy of an array. */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent generator derived from this one and a label, so that sub-streams do not interfere. */
  derive(label: string): Random;
}

/** Builds a deterministic generator from a numeric or string seed. */
export function createRandom(seed: number | string): Random {
  let state = typeof seed === "number" ? mix32(seed >>> 0) : hashString(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick() needs a non-empty array");
      return items[int(0, items.length - 1)]!;
    },
    shuffle: (items) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
    derive: (label) => createRandom(hashString(`${state}:${label}`)),
  };
}

/**
 * FNV-1a 32-bit hash of a string, finished with a full avalanche, so that neighbouring seeds and labels
 * ("task:1", "task:2") give unrelated generator states.
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h >>> 0);
}

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
function mix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
