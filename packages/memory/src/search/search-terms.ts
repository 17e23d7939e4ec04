/** The most words of a query a search uses. */
export const MAX_SEARCH_TERMS = 32;

/** English words too common to say what a query is about (they only widen and slow a full-text search). */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her hers him his how i if in " +
    "into is it its me my myself of on or our she so that the their them then there these they this to us was we " +
    "were what when where which who whom why will with would you your"
  ).split(" "),
);

/**
 * The words of a free-text query (letters and digits, lower case, deduplicated, common English words left out
 * unless nothing else is left, at most `MAX_SEARCH_TERMS`). Contract: never returns anything with punctuation, so
 * the terms are safe to quote into an FTS5 or tsquery expression; a query of pure punctuation gives no terms (and
 * the search no hits, never a syntax error).
 */
export function searchTerms(query: string): string[] {
  const words = [
    ...new Set(
      query
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
  const meaningful = words.filter((word) => !STOPWORDS.has(word));
  return (meaningful.length > 0 ? meaningful : words).slice(0, MAX_SEARCH_TERMS);
}
