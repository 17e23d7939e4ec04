import type { Formality, StyleObservation } from "./style-observation.js";

/** A few very common words per language: two or more of one language's (and more than of any other) name it. */
const LANGUAGE_WORDS: Readonly<Record<string, readonly string[]>> = {
  English: words("the and is are you what how this that with have can i it my"),
  German: words("und ist ich nicht das die der wie was mit du ein eine bitte mir"),
  French: words("le la les est je vous et une pas avec pour que tu moi ce"),
  Spanish: words("el los es yo que por una con para como pero tu mi hola qué"),
  Italian: words("il che è sono per una non con come mi ciao grazie gli della"),
  Dutch: words("de het een ik niet wat hoe je met van dat zijn ook mijn"),
  Portuguese: words("o os não uma com para você eu obrigado como meu isso está"),
};

const INFORMAL_WORDS = new Set(
  words(
    "lol haha hehe thx ty pls plz btw u ur ya yeah yep nope gonna wanna hey hi ok okay cool k omg idk imo dunno sup cheers jo moin hallo hab ne nix danke salut mdr ciao hola",
  ),
);
const FORMAL_WORDS = new Set(
  words(
    "dear sincerely regards kindly would could please appreciate grateful furthermore therefore sie ihnen geehrte freundlichen vous usted gentile cordiali",
  ),
);

/** A list written as one line of words. */
function words(line: string): readonly string[] {
  return line.split(" ");
}

const EMOJI = /\p{Extended_Pictographic}/u;
/** Fenced or inline code, or a line that reads like a statement of a programming language. */
const CODE =
  /```|`[^`\n]+`|^\s*(?:import|from|def|function|const|let|class|return|SELECT|#include)\b.*[;:{(=]|[;{]\s*$/m;

/**
 * Seed 003 step 1's style detector: a cheap heuristic fingerprint of one user message — no model call. Contract:
 * pure; undefined for a message without words (an attachment alone, an empty text).
 * @example detectStyle("hey wie gehts? hab ne frage") // { chars: 27, formality: "informal", language: "German", … }
 */
export function detectStyle(text: string): StyleObservation | undefined {
  const trimmed = text.trim();
  const words = trimmed.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  if (words.length === 0) return undefined;
  const language = languageOf(words);
  return {
    chars: Array.from(trimmed).length,
    formality: formalityOf(trimmed, words),
    ...(language === undefined ? {} : { language }),
    emoji: EMOJI.test(trimmed),
    code: CODE.test(trimmed),
  };
}

function languageOf(words: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestHits = 0;
  let tied = false;
  for (const [language, common] of Object.entries(LANGUAGE_WORDS)) {
    const hits = words.filter((word) => common.includes(word)).length;
    if (hits > bestHits) [best, bestHits, tied] = [language, hits, false];
    else if (hits === bestHits) tied = true;
  }
  return bestHits >= 2 && !tied ? best : undefined;
}

function formalityOf(text: string, words: readonly string[]): Formality {
  let score = 0; // above zero informal, below formal
  for (const word of words) {
    if (INFORMAL_WORDS.has(word)) score += 1;
    if (FORMAL_WORDS.has(word)) score -= 1;
  }
  const first = text.match(/\p{L}/u)?.[0];
  if (first !== undefined && first === first.toLowerCase() && first !== first.toUpperCase()) score += 1;
  if (/[!?]{2,}/.test(text) || EMOJI.test(text)) score += 1;
  if (/^\p{Lu}/u.test(text) && /[.]$/.test(text) && words.length >= 6) score -= 1;
  return score > 0 ? "informal" : score < 0 ? "formal" : "neutral";
}
