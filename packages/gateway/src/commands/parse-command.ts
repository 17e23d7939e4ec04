/** A command as typed: `/name arg arg`. */
export interface ParsedCommand {
  readonly name: string;
  readonly args: readonly string[];
}

/**
 * Reads a slash command from a message. `/Model@MyBot gpt` gives { name: "model", args: ["gpt"] }.
 * Contract: undefined for text that is not a command (including "/" alone and paths like "/usr/bin").
 */
export function parseCommand(text: string): ParsedCommand | undefined {
  const match = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:@\S+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (match === null) return undefined;
  const rest = match[2]?.trim() ?? "";
  return { name: match[1]!.toLowerCase(), args: rest === "" ? [] : rest.split(/\s+/) };
}
