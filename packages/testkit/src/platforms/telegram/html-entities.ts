import type { TgEntity } from "./telegram-types.js";

/** Why Telegram refused an HTML text (the part after "Bad Request: can't parse entities: "). */
export class HtmlEntityError extends Error {
  override readonly name = "HtmlEntityError";
}

/** Parsed form of an HTML text: what the user sees, and the formatting as entities. */
export interface ParsedHtml {
  readonly text: string;
  readonly entities: TgEntity[];
}

interface OpenTag {
  readonly name: string;
  /** Offset in UTF-16 code units of the parsed text where the tag started. */
  readonly start: number;
  readonly entity: Omit<TgEntity, "offset" | "length"> | undefined;
}

const SIMPLE: Readonly<Record<string, string>> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
};
const SUPPORTED = new Set([...Object.keys(SIMPLE), "a", "span", "tg-emoji"]);
const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function byteOffset(source: string, index: number): number {
  return Buffer.byteLength(source.slice(0, index));
}

function parseAttributes(raw: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (const match of raw.matchAll(pattern)) {
    const name = (match[1] ?? "").toLowerCase();
    attributes[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return NAMED_ENTITIES[name] ?? whole;
  });
}

function entityFor(name: string, attributes: Record<string, string>): OpenTag["entity"] {
  if (name === "a") return attributes.href ? { type: "text_link", url: attributes.href } : undefined;
  if (name === "span") return { type: "spoiler" };
  if (name === "tg-emoji") return { type: "custom_emoji", custom_emoji_id: attributes["emoji-id"] ?? "" };
  if (name === "blockquote" && "expandable" in attributes) return { type: "expandable_blockquote" };
  if (name === "code" && attributes.class?.startsWith("language-")) {
    return { type: "code", language: attributes.class.slice("language-".length) };
  }
  return { type: SIMPLE[name] as string };
}

/**
 * Parses text sent with `parse_mode: "HTML"` the way the Bot API does: the supported tags
 * become entities (UTF-16 offsets), `&lt; &gt; &amp; &quot;` and numeric entities are decoded,
 * and an unsupported, unclosed or mismatched tag is refused.
 * Contract: throws `HtmlEntityError` with Telegram's wording; never returns partial results.
 */
export function parseTelegramHtml(source: string): ParsedHtml {
  let text = "";
  const entities: TgEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    if (ch === "&") {
      const match = /^&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/.exec(source.slice(i, i + 12));
      const decoded = match ? decodeEntities(match[0]) : undefined;
      // An unknown entity stays a literal "&", as on Telegram.
      const known = match !== null && decoded !== undefined && decoded !== match[0];
      text += known ? decoded : "&";
      i += known ? match[0].length : 1;
      continue;
    }
    if (ch !== "<") {
      text += ch;
      i += 1;
      continue;
    }
    const close = source.indexOf(">", i);
    const isEnd = source[i + 1] === "/";
    const nameMatch = /^[a-zA-Z-]*/.exec(source.slice(i + (isEnd ? 2 : 1)));
    const name = (nameMatch?.[0] ?? "").toLowerCase();
    if (close < 0) throw new HtmlEntityError(`Unclosed start tag at byte offset ${byteOffset(source, i)}`);
    if (!isEnd) {
      if (!SUPPORTED.has(name)) {
        throw new HtmlEntityError(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, i)}`);
      }
      const attributes = parseAttributes(source.slice(i + 1 + name.length, close));
      stack.push({ name, start: text.length, entity: entityFor(name, attributes) });
      i = close + 1;
      continue;
    }
    const open = stack.pop();
    if (!open) throw new HtmlEntityError(`Unexpected end tag at byte offset ${byteOffset(source, i)}`);
    if (open.name !== name) {
      throw new HtmlEntityError(
        `Unmatched end tag at byte offset ${byteOffset(source, i)}, expected "</${open.name}>", found "</${name}>"`,
      );
    }
    if (open.entity && text.length > open.start) {
      const entity = { ...open.entity, offset: open.start, length: text.length - open.start } as TgEntity;
      // <pre><code class="language-x"> is one `pre` entity with a language, as Telegram reports it.
      const inner = entities.at(-1);
      if (
        open.entity.type === "pre" &&
        inner?.type === "code" &&
        inner.offset === entity.offset &&
        inner.length === entity.length
      ) {
        entities.pop();
        if (inner.language !== undefined) entity.language = inner.language;
      }
      entities.push(entity);
    }
    i = close + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) throw new HtmlEntityError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}
