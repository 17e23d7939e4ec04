/** What the person asked the demo model for, recognised by keywords. */
export type DemoIntent =
  | { readonly kind: "greet" }
  | { readonly kind: "help" }
  | { readonly kind: "time" }
  | { readonly kind: "list"; readonly path: string }
  | { readonly kind: "read"; readonly path: string }
  | { readonly kind: "research"; readonly topic: string }
  | { readonly kind: "other"; readonly text: string };

/**
 * Recognises the demo's few requests in a user's text.
 * Contract: pure; unrecognised text is `other`.
 */
export function recogniseIntent(text: string): DemoIntent {
  // In groups the gateway prefixes who is speaking ("[alice]: hi"); the demo answers the words, not the name.
  const said = text.trim().replace(/^\[[^\]\n]{1,100}\]:\s*/, "");
  const lower = said.toLowerCase();
  const research = /^(?:please\s+)?(?:research|investigate|look into|find out about)\s+(.+)$/i.exec(said);
  if (research?.[1]) return { kind: "research", topic: research[1].replace(/[?.!]+$/, "") };
  const read = /\b(?:read|open|show|cat)\s+(?:the\s+file\s+)?([\w./-]+\.\w+)/i.exec(said);
  if (read?.[1]) return { kind: "read", path: read[1] };
  if (/^(?:\/)?help\b|what can you do/.test(lower)) return { kind: "help" };
  if (/\btime\b|\bclock\b|\bdate\b/.test(lower)) return { kind: "time" };
  const list = /\b(?:list|ls|files|folder|directory|workspace)\b(?:\s+(?:in|of)\s+([\w./-]+))?/i.exec(said);
  if (list) return { kind: "list", path: list[1] ?? "." };
  if (/^(?:hi|hello|hey|hallo|howdy|good (?:morning|afternoon|evening)|yo|greetings)\b/.test(lower) || lower === "") {
    return { kind: "greet" };
  }
  return { kind: "other", text: said };
}
