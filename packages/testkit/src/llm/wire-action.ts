/** What a fake does next on an open SSE response: the unit every wire encoder produces. */
export type WireAction =
  | { kind: "frame"; data: string }
  | { kind: "stall"; ms: number }
  | { kind: "cut" }
  | { kind: "end" };

/** An HTTP error answer instead of a stream. */
export interface WireErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Per-response facts an encoder needs: a sequence number for ids and the requested model. */
export interface WireContext {
  seq: number;
  model: string;
  body: Record<string, unknown>;
}

/** One SSE frame with a named event (Anthropic, OpenAI Responses). */
export function namedEvent(event: string, data: unknown): WireAction {
  return { kind: "frame", data: `event: ${event}\ndata: ${JSON.stringify(data)}\n\n` };
}

/** One SSE frame with only a data line (OpenAI Chat Completions). */
export function dataEvent(data: unknown): WireAction {
  return { kind: "frame", data: `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n` };
}
