/** One server-sent event: its `event:` name (undefined when none was given) and its `data:` lines joined. */
export interface ServerSentEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/**
 * Reads a `text/event-stream` body as events (the WHATWG rules that matter to model APIs: `data:` lines joined by
 * newlines, `event:` names, comments and other fields skipped, `\n` or `\r\n` line ends, a final event without
 * its blank line still delivered). Every model API ends lines with `\n`; a lone `\r` is not taken as a line end.
 * Contract: yields events in order; the body's own errors (an abort, a cut connection) are thrown as they are.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pending = "";
  let data: string[] = [];
  let event: string | undefined;
  const take = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      if (data.length === 0) {
        event = undefined;
        return undefined;
      }
      const complete = { event, data: data.join("\n") };
      data = [];
      event = undefined;
      return complete;
    }
    if (line.charCodeAt(0) === 58 /* ":" */) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* " " */) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    return undefined;
  };
  for await (const bytes of body) {
    pending += decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n", start)) {
      const end = newline > start && pending.charCodeAt(newline - 1) === 13 /* "\r" */ ? newline - 1 : newline;
      const complete = take(pending.slice(start, end));
      start = newline + 1;
      if (complete !== undefined) yield complete;
    }
    if (start > 0) pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending !== "") {
    const complete = take(pending.endsWith("\r") ? pending.slice(0, -1) : pending);
    if (complete !== undefined) yield complete;
  }
  const last = take("");
  if (last !== undefined) yield last;
}
