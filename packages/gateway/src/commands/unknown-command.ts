import { editDistance } from "./edit-distance.js";

/** How an agent treats a `/word` that is neither a builtin command nor one of its skills. */
export type UnknownCommands = "answer" | "pass";

/**
 * Words passed to the agent whatever the setting: Telegram sends `/start` when someone opens the bot for the first
 * time, and a greeting from the agent is the expected answer.
 */
const ALWAYS_PASSED = new Set(["start"]);

/**
 * Whether a `/name` that is not builtin is answered by the gateway (closest command + /help) rather than passed to
 * the agent as text. Contract: skills (`/skill-name`) and `/start` always pass; `pass` passes everything.
 */
export function answersUnknownCommand(
  name: string,
  setting: UnknownCommands,
  skills: readonly { readonly name: string }[],
): boolean {
  if (setting === "pass" || ALWAYS_PASSED.has(name)) return false;
  return !skills.some((skill) => skill.name.toLowerCase() === name);
}

/**
 * The answer to an unknown `/name`: the closest command the sender can use (when one is close enough to be a typo)
 * and a pointer to /help. Contract: pure.
 */
export function unknownCommandAnswer(name: string, commands: readonly string[]): string {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of commands) {
    const distance = editDistance(name, candidate);
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  // A typo is a couple of letters off; "/weather" is not a misspelt "/help".
  const close = best !== undefined && best.distance <= Math.min(2, Math.ceil(name.length / 3));
  const suggestion = close ? ` Did you mean /${best?.name}?` : "";
  return `There is no /${name} command.${suggestion} /help lists the commands you can use.`;
}
