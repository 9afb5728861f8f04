/** Test helper: a clock that stands still until the test advances it (for TTLs and idle timers). */
export function fakeClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
