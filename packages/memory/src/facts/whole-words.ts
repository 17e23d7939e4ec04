/** A word: a run of letters and digits (any script), apostrophes inside it included ("alice's", "don't"). */
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

/** The words of `text`, lower-cased, with typographic apostrophes made plain. Contract: pure. */
export function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[\u2019\u02bc]/g, "'")
      .match(WORD) ?? []
  );
}

/** A word of a fact matches a wanted word as it is, or in its possessive ("alice's" for "alice"). */
function sameWord(word: string | undefined, wanted: string): boolean {
  return word === wanted || word === `${wanted}'s`;
}

/**
 * Whether `text` holds the words of `target` as whole words, in their order and next to each other (case, spacing
 * and punctuation aside; a possessive counts as its word): "cat" matches "the cat sleeps" and "Cat!", never
 * "scattering"; "s" matches no "Alice's". A target without any word matches nothing. Contract: pure; how both
 * memory stores match `forget` by text.
 */
export function holdsWords(text: string, target: string): boolean {
  const wanted = wordsOf(target);
  if (wanted.length === 0) return false;
  const words = wordsOf(text);
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (wanted.every((word, offset) => sameWord(words[start + offset], word))) return true;
  }
  return false;
}
