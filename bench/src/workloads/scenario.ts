/**
 * A scripted conversation every system under test plays the same way: the same prompt,
 * the same tools and a model that answers from what the transcript holds so far.
 * Systems translate these plain descriptions into their own stream and tool formats.
 */

/** One argument of a tool: its name and JSON type. */
export interface ToolField {
  name: string;
  type: "string" | "number";
}

/** A tool the scripted model may call. `execute` gets the already-validated arguments. */
export interface ScenarioTool {
  name: string;
  description: string;
  fields: ToolField[];
  execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
}

/** A tool call the scripted model emits, `atMs` after its response stream started. */
export interface ScriptedToolCall {
  kind: "toolCall";
  atMs: number;
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** Text the scripted model emits, `atMs` after its response stream started. */
export interface ScriptedText {
  kind: "text";
  atMs: number;
  text: string;
}

export type ScriptedStep = ScriptedToolCall | ScriptedText;

/** One model response. It ends at `endAtMs` (or right after its last step) with "toolUse" when it called tools. */
export interface ScriptedTurn {
  steps: ScriptedStep[];
  endAtMs?: number;
}

/** A tool result the model sees in its context, in the order the transcript holds them. */
export interface SeenToolResult {
  toolName: string;
  text: string;
}

/**
 * A workload: a prompt, tools, and the model's behaviour.
 * Contract: `respond` is pure; it gets the tool results that follow the prompt (none on the first turn).
 */
export interface Scenario {
  name: string;
  prompt: string;
  tools: ScenarioTool[];
  respond(toolResults: readonly SeenToolResult[]): ScriptedTurn;
}

/** True when every step is due at 0 ms: systems then push the whole response synchronously (zero latency). */
export function isInstant(turn: ScriptedTurn): boolean {
  return (turn.endAtMs ?? 0) === 0 && turn.steps.every((step) => step.atMs === 0);
}

/** When the response ends: `endAtMs`, or the last step's time. */
export function turnEndMs(turn: ScriptedTurn): number {
  return Math.max(turn.endAtMs ?? 0, ...turn.steps.map((step) => step.atMs));
}
