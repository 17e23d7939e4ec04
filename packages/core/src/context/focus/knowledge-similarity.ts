/** Words too common to say two notes are about the same thing. */
const STOP_WORDS = new Set(
  (
    "the and for are but not you all any can had her was one our out has him his how its may new now see two who did " +
    "get let put say she too use this that with from have been were will they them then than what when where which " +
    "while into only also more most some such very just over under about after before there their these those would " +
    "could should because"
  ).split(" "),
);

/** The distinct content words of a text (lower case, letters and digits, three or more characters, no stop words). */
export function wordSet(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
    if (word.length >= 3 && !STOP_WORDS.has(word)) words.add(word);
  }
  return words;
}

/** Jaccard similarity of two word sets: shared words ÷ all words (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * The knowledge of several segments as one text: their lines in order, each distinct line once (case and spacing
 * ignored), cut at `maxChars` with an ellipsis. No model call: the notes are the model's own, already distilled.
 */
export function mergeKnowledge(texts: readonly string[], maxChars: number): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const text of texts) {
    for (const line of text.split("\n")) {
      const key = line.trim().replace(/\s+/g, " ").toLowerCase();
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      lines.push(line.trimEnd());
    }
  }
  const merged = lines.join("\n");
  return merged.length <= maxChars ? merged : `${merged.slice(0, maxChars - 1)}…`;
}
