/**
 * Determinism: every "random" byte and choice of the sweep comes from a seeded generator, so that a
 * failure names a request that the next run sends again.
 */

export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (below: number) => Math.floor(next() * below),
    bytes: (length: number) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  };
}

/**
 * The generator the routes' values, the fixtures and the hand-built messages share. It is drawn from
 * in the order the suite runs, so a new draw anywhere changes the bytes every later one gets.
 */
export const RANDOM = seeded(0x5eed);
