import { checkFactText } from "./check-fact-text.js";
import { newFactId } from "./fact-id.js";
import type { Fact, FactRevision, NewFact } from "./fact-types.js";
import { normaliseFactText, normaliseSubject } from "./normalise-fact.js";

/** How many earlier wordings a fact keeps; older ones are dropped. */
export const MAX_FACT_HISTORY = 20;

/** What a store must write for one `remember`: a new row, an update of a row, or nothing new (a merge). */
export type RememberPlan =
  | { readonly kind: "added"; readonly fact: Fact }
  | { readonly kind: "merged"; readonly fact: Fact }
  | { readonly kind: "replaced"; readonly fact: Fact; readonly previous: FactRevision };

/**
 * A fact as `remember` stores it: its text checked (at most `maxChars`), its subject normalised, and the normalised
 * text its duplicates are found by. Contract: throws what `checkFactText` throws.
 */
export function checkNewFact(input: NewFact, maxChars: number): { readonly fact: NewFact; readonly norm: string } {
  const text = checkFactText(input.text, maxChars);
  const subject = normaliseSubject(input.subject);
  const fact: NewFact = {
    scope: input.scope,
    text,
    source: input.source,
    ...(subject === undefined ? {} : { subject }),
  };
  return { fact, norm: normaliseFactText(text) };
}

/**
 * Decides what `remember` does, given the scope's fact with the same normalised text (`sameText`) and the one with
 * the same subject (`sameSubject`). Contract: pure; `input.text` is already checked and `input.subject` normalised.
 * Same text → merged (the subject is added when the old fact had none); else same subject → replaced, the old text
 * kept in `history`; else added.
 */
export function planRemember(
  input: NewFact,
  sameText: Fact | undefined,
  sameSubject: Fact | undefined,
  now: number,
): RememberPlan {
  if (sameText !== undefined) {
    const subject = sameText.subject ?? input.subject;
    return {
      kind: "merged",
      fact: { ...sameText, ...(subject === undefined ? {} : { subject }), updatedAt: now },
    };
  }
  if (sameSubject !== undefined) {
    const previous: FactRevision = { text: sameSubject.text, source: sameSubject.source, replacedAt: now };
    return {
      kind: "replaced",
      previous,
      fact: {
        ...sameSubject,
        text: input.text,
        source: input.source,
        updatedAt: now,
        history: [...sameSubject.history, previous].slice(-MAX_FACT_HISTORY),
      },
    };
  }
  return {
    kind: "added",
    fact: {
      id: newFactId(),
      scope: input.scope,
      text: input.text,
      ...(input.subject === undefined ? {} : { subject: input.subject }),
      source: input.source,
      createdAt: now,
      updatedAt: now,
      history: [],
    },
  };
}
