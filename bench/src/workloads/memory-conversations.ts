// The synthetic long-conversation set of the `memory` bench (issue #20): per user, hundreds of sessions in which
// facts about them are stated once (some updated later), among distractors (other people's facts, small talk), and
// questions asked many sessions later whose answer is the fact's current wording. Deterministic for a seed.

/** One attribute a user has, how a fact about it is worded and how it is asked about. */
interface Attribute {
  readonly subject: string;
  readonly fact: (value: string) => string;
  readonly question: string;
  readonly values: readonly string[];
}

const CITIES = ["Lisbon", "Porto", "Madrid", "Berlin", "Oslo", "Kyoto", "Austin", "Nairobi", "Lima", "Hanoi"];
const NAMES = ["Ana", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"];
const FOODS = ["sushi", "lasagne", "pho", "tacos", "falafel", "ramen", "paella", "curry", "pierogi", "ceviche"];

const ATTRIBUTES: readonly Attribute[] = [
  { subject: "home city", fact: (v) => `My home city is ${v} now`, question: "Which city is my home?", values: CITIES },
  {
    subject: "employer",
    fact: (v) => `I work as an engineer at ${v} Labs`,
    question: "Where do I work?",
    values: NAMES,
  },
  {
    subject: "favourite food",
    fact: (v) => `My favourite food is ${v}`,
    question: "What food do I like best?",
    values: FOODS,
  },
  { subject: "dog", fact: (v) => `My dog is called ${v}`, question: "What is my dog's name?", values: NAMES },
  { subject: "sister", fact: (v) => `My sister is named ${v}`, question: "What is my sister's name?", values: NAMES },
  {
    subject: "gym day",
    fact: (v) => `I go to the gym on ${v}`,
    question: "Which day do I go to the gym?",
    values: ["Mondays", "Tuesdays", "Fridays", "Sundays"],
  },
  {
    subject: "allergy",
    fact: (v) => `I am allergic to ${v}`,
    question: "What am I allergic to?",
    values: ["peanuts", "penicillin", "cats", "pollen", "shellfish"],
  },
  {
    subject: "car",
    fact: (v) => `I drive a ${v} car`,
    question: "What car do I drive?",
    values: ["red Volvo", "blue Fiat", "white Tesla", "green Mini"],
  },
  {
    subject: "birthday",
    fact: (v) => `My birthday is on ${v}`,
    question: "When is my birthday?",
    values: ["3 May", "12 June", "30 January", "8 October"],
  },
  {
    subject: "language",
    fact: (v) => `I am learning ${v} this year`,
    question: "Which language am I learning?",
    values: ["Japanese", "Swahili", "Polish", "Greek"],
  },
  {
    subject: "coffee",
    fact: (v) => `I take my coffee ${v}`,
    question: "How do I take my coffee?",
    values: ["black", "with oat milk", "with sugar", "as espresso"],
  },
  {
    subject: "team",
    fact: (v) => `I support the ${v} football team`,
    question: "Which football team do I support?",
    values: CITIES,
  },
];

const SMALL_TALK = [
  (r: Rng) => `${pick(r, NAMES)} from the office went to ${pick(r, CITIES)} for a conference`,
  (r: Rng) => `The weather in ${pick(r, CITIES)} was rainy last week`,
  (r: Rng) => `${pick(r, NAMES)} recommended a ${pick(r, FOODS)} place downtown`,
  (r: Rng) => `The quarterly report is due on a ${pick(r, ["Monday", "Thursday", "Friday"])}`,
  (r: Rng) => `${pick(r, NAMES)}'s cat knocked over a plant`,
  (r: Rng) => `A podcast episode about ${pick(r, ["sleep", "stoicism", "volcanoes", "jazz"])} was interesting`,
];

/** Other people's versions of the user's attributes: the hard distractors. */
const OTHERS = [
  (r: Rng) => `${pick(r, NAMES)}'s home city is ${pick(r, CITIES)}`,
  (r: Rng) => `${pick(r, NAMES)}'s dog is called ${pick(r, NAMES)}`,
  (r: Rng) => `${pick(r, NAMES)} drives a ${pick(r, ["red Volvo", "blue Fiat", "grey Audi"])} car`,
  (r: Rng) => `${pick(r, NAMES)} is allergic to ${pick(r, ["dust", "nuts", "latex"])}`,
];

type Rng = () => number;

/** mulberry32: a small, fast, deterministic PRNG. */
function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: Rng, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

/** One fact as the model would `remember` it in a session. */
export interface ConversationFact {
  readonly session: number;
  readonly text: string;
  /** Set for the user's own attributes (a later fact on it replaces this one). */
  readonly subject?: string;
}

/** A question asked after the last session: the answer is the current fact on `subject`, worded `expected`. */
export interface ConversationQuestion {
  readonly question: string;
  readonly subject: string;
  readonly expected: string;
  /** The fact was updated at least once before the question (the old wording must not win). */
  readonly updated: boolean;
}

/** One user's long conversation: facts in session order, then the questions. */
export interface UserConversation {
  readonly user: string;
  readonly facts: readonly ConversationFact[];
  readonly questions: readonly ConversationQuestion[];
}

/**
 * `users` users, each with `sessions` sessions: every attribute is stated once early and re-stated with a new value
 * (an update) with probability `updateRate` somewhere later; every session adds `distractors` small-talk facts and
 * one other person's fact a third of the time. Contract: the same arguments give the same set.
 */
export function generateMemoryConversations(options: {
  users: number;
  sessions: number;
  distractors: number;
  updateRate: number;
  seed: number;
}): UserConversation[] {
  const out: UserConversation[] = [];
  for (let u = 0; u < options.users; u++) {
    const r = rng(options.seed * 7919 + u);
    const facts: ConversationFact[] = [];
    const current = new Map<string, { text: string; updated: boolean }>();
    const plan = new Map<number, Attribute[]>();
    for (const attribute of ATTRIBUTES) {
      const first = Math.floor(r() * (options.sessions / 3));
      plan.set(first, [...(plan.get(first) ?? []), attribute]);
      if (r() < options.updateRate) {
        const later = first + 1 + Math.floor(r() * (options.sessions - first - 2));
        plan.set(later, [...(plan.get(later) ?? []), attribute]);
      }
    }
    for (let s = 0; s < options.sessions; s++) {
      for (const attribute of plan.get(s) ?? []) {
        const before = current.get(attribute.subject);
        let value = pick(r, attribute.values);
        while (before !== undefined && before.text === attribute.fact(value)) value = pick(r, attribute.values);
        const text = attribute.fact(value);
        facts.push({ session: s, text, subject: attribute.subject });
        current.set(attribute.subject, { text, updated: before !== undefined });
      }
      for (let d = 0; d < options.distractors; d++) facts.push({ session: s, text: pick(r, SMALL_TALK)(r) });
      if (r() < 1 / 3) facts.push({ session: s, text: pick(r, OTHERS)(r) });
    }
    const questions = ATTRIBUTES.map((attribute) => {
      const now = current.get(attribute.subject) as { text: string; updated: boolean };
      return { question: attribute.question, subject: attribute.subject, expected: now.text, updated: now.updated };
    });
    out.push({ user: `bench-user-${u}`, facts, questions });
  }
  return out;
}
