/** How formal one message reads: greetings and polite forms versus slang, lower-case starts and no final stop. */
export type Formality = "formal" | "informal" | "neutral";

/**
 * What the style detector noticed in one message (seed 003 step 1): its length, formality, language, emoji and code.
 * Never its words — an observation holds nothing the user said.
 */
export interface StyleObservation {
  /** The message's length in characters. */
  readonly chars: number;
  readonly formality: Formality;
  /** The language it is written in, by name ("German"), when a few of its common words made that clear. */
  readonly language?: string;
  readonly emoji: boolean;
  readonly code: boolean;
}

/** One observation to keep, for one user's scope (`user:<person>`). */
export interface NewUserObservation {
  /** The user's memory scope (`formatMemoryScope({ kind: "user", id })`). */
  readonly scope: string;
  readonly style: StyleObservation;
  /** Epoch ms. */
  readonly at: number;
}

/** One kept observation. */
export type UserObservation = NewUserObservation;

/** A user's newest observations, newest first, and how many are kept. */
export interface UserObservationPage {
  readonly observations: readonly UserObservation[];
  readonly total: number;
}

/** How many observations a store keeps per user: the newest, older ones pruned on insert. */
export const MAX_USER_OBSERVATIONS = 50;
