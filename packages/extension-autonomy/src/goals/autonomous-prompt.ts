import type { AgentMessage } from "@chorus/core";
import type { GoalRecord } from "./goal-record.js";

/** What the model reads as an autonomous turn's prompt. */
export function autonomousPrompt(goal: GoalRecord, turn: number, maxTurns: number): string {
  return turn === 1
    ? `[Autonomous goal, turn 1 of ${maxTurns}] ${goal.text}\n\nWork toward this goal on your own, step by step; ` +
        "each of your replies is followed by another turn until the goal is met."
    : `[Autonomous goal, turn ${turn} of ${maxTurns}] Continue working toward the goal.`;
}

const PROMPT_TURN = /^\[Autonomous goal, turn (\d+) of \d+\]/;

/**
 * The last autonomous turn of `transcript` that has an answer (an assistant message after its prompt), or undefined.
 * Contract: reads only prompts written by `autonomousPrompt`.
 */
export function lastAnsweredAutonomousTurn(transcript: readonly AgentMessage[]): number | undefined {
  let asked: number | undefined;
  let answered: number | undefined;
  for (const message of transcript) {
    if (message.role === "user") {
      const text = typeof message.content === "string" ? message.content : "";
      const turn = PROMPT_TURN.exec(text)?.[1];
      if (turn !== undefined) asked = Number(turn);
    } else if (message.role === "assistant" && asked !== undefined) answered = asked;
  }
  return answered;
}
