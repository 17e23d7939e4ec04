import type { RandomSource } from "./skill-arm.js";

/**
 * One draw from Beta(alpha, beta), as X / (X + Y) with X ~ Gamma(alpha), Y ~ Gamma(beta) (Marsaglia–Tsang).
 * Contract: alpha and beta must be positive (a RangeError otherwise); the draw lies in [0, 1].
 */
export function sampleBeta(alpha: number, beta: number, random: RandomSource): number {
  if (!(alpha > 0) || !(beta > 0)) throw new RangeError(`Beta needs positive alpha and beta, got (${alpha}, ${beta})`);
  const x = sampleGamma(alpha, random);
  const y = sampleGamma(beta, random);
  return x + y === 0 ? 0.5 : x / (x + y);
}

function sampleGamma(shape: number, random: RandomSource): number {
  // Below 1, Gamma(shape) = Gamma(shape + 1) · U^(1/shape).
  if (shape < 1) return sampleGamma(shape + 1, random) * (1 - random()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = standardNormal(random);
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Box–Muller: one standard normal draw from two uniforms. */
function standardNormal(random: RandomSource): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
