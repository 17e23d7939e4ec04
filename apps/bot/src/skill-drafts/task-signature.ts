/**
 * Words that name no task (seed 003 step 20 drops "stopwords"; it lists none, so this is the common English set a
 * chat request is made of: articles, pronouns, auxiliaries, politeness).
 */
const STOPWORDS = new Set(
  (
    "the and for with from into onto that this these those then than there here what which when where who whom whose " +
    "why how are was were been being have has had does did doing can could would should will shall may might must " +
    "you your yours our ours their theirs his her hers its they them him she not but all any some each every " +
    "just also very too please thanks thank again about over under after before out off only own same such " +
    "let lets get got make made want need like"
  ).split(" "),
);

/** Tokens shorter than this are dropped ("short tokens": the seed names no length; 1–2 letters carry no task). */
const MIN_TOKEN_LENGTH = 3;
/** How many tokens make a signature (seed 003 step 20: the top three by length). */
const SIGNATURE_TOKENS = 3;
/** Whitespace and every ASCII punctuation character: ! to /, : to @, [ to `, { to ~. */
const SEPARATORS = /[\s!-/:-@[-`{-~]+/u;

/**
 * The bucketer's task signature of a turn's input (seed 003 step 20): lowercased, split on whitespace and ASCII
 * punctuation, stopwords and short tokens dropped, the three longest tokens taken (a token counts once; among equally
 * long ones the earlier wins), sorted and joined with `-`. Contract: pure; "" when no token is left (such a turn is
 * in no bucket).
 * @example taskSignatureOf("Please deploy the staging branch to Kubernetes!") // "deploy-kubernetes-staging"
 */
export function taskSignatureOf(input: string): string {
  const tokens = [
    ...new Set(
      input
        .toLowerCase()
        .split(SEPARATORS)
        .filter((token) => token.length >= MIN_TOKEN_LENGTH && !STOPWORDS.has(token)),
    ),
  ];
  // Array.prototype.sort is stable: equally long tokens keep their order of appearance.
  const longest = tokens.sort((a, b) => b.length - a.length).slice(0, SIGNATURE_TOKENS);
  return longest.sort().join("-");
}
