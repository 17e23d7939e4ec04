import { isInstant, type ScriptedStep, type ScriptedTurn, turnEndMs } from "./scenario.js";

/**
 * Plays a scripted turn: calls `onStep` for each step at its time and `onEnd` last.
 * An instant turn (everything at 0 ms) is played synchronously, so a zero-latency
 * model adds no timer hops to what the loop-overhead workload measures.
 */
export function playTurn(turn: ScriptedTurn, onStep: (step: ScriptedStep) => void, onEnd: () => void): void {
  if (isInstant(turn)) {
    for (const step of turn.steps) onStep(step);
    onEnd();
    return;
  }
  // Timers with equal delays fire in creation order, so steps due together keep their order.
  for (const step of turn.steps) setTimeout(() => onStep(step), step.atMs);
  setTimeout(onEnd, turnEndMs(turn));
}
