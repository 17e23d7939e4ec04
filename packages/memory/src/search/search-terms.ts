/** The most words of a query a search uses. */
export const MAX_SEARCH_TERMS = 32;

/**
 * The words of a free-text query (letters and digits, lower case, deduplicated, at most `MAX_SEARCH_TERMS`).
 * Contract: never returns anything with punctuation, so the terms are safe to quote into an FTS5 or tsquery
 * expression; a query of pure punctuation gives no terms (and the search no hits, never a syntax error).
 */
export function searchTerms(query: string): string[] {
  const words =
    query
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_TERMS);
}
