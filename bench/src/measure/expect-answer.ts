/**
 * Stops the bench when a system gave the wrong final answer: a broken run must never be
 * reported as a (fast) number. Contract: throws an Error naming the system and workload.
 */
export function expectAnswer(system: string, workload: string, answer: string, expected: string): void {
  if (answer !== expected) {
    throw new Error(`${system}: ${workload} answered ${JSON.stringify(answer)}, expected ${JSON.stringify(expected)}`);
  }
}
