import type { RandomSource } from "./skill-arm.js";

/**
 * A deterministic random source (mulberry32) for reproducible picks in tests and benchmarks.
 * Contract: the same seed gives the same sequence; values lie in [0, 1).
 * @example const random = seededRandom(42); random(); // always the same first value
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
