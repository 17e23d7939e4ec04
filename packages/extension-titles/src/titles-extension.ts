import type { Model } from "@chorus/core";
import type { ExtensionStartContext, GatewayExtension, TurnCommitted } from "@chorus/gateway";
import { isSubagentKey } from "@chorus/store";
import { firstExchangeOf } from "./first-exchange.js";
import { writeModelTitle } from "./model-title.js";
import { UnknownTitleModelError } from "./unknown-title-model.js";

/** What `titlesExtension` is given. */
export interface TitlesOptions {
  /** The id of the (cheap) model titles are written with, as the gateway's model catalog knows it. */
  readonly model: string;
  /** A title call still running after this long is abandoned (the text title stays). Default 15 000 ms. */
  readonly timeoutMs?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** Messages that may arrive while a session's first turn runs and still leave it its title. */
const LATE_ARRIVALS = 20;

/**
 * Session titles written by a cheap model (seed 001 §9): after a session's first completed turn, in the background
 * (the reply is already committed and never waits for it), one call to `model` through the gateway's StreamFn with the
 * session key and purpose `title` (budgets reserve it against the session's agent) turns the first user message and
 * the reply into a title of a few words, stored with the session (`/agents sessions` shows it). Every session — a
 * guest's too: the call is small, and budgets still cap it — except sub-agents' (nobody lists them by title).
 * Contract: `start` throws UnknownTitleModelError when the catalog does not know `model` (the gateway does not
 * start); a failing, hanging (past `timeoutMs`) or empty title call keeps the gateway's text title (the first
 * message's first line); `stopping` abandons running title calls; the gateway's `idle()` waits for them.
 * @example new Gateway({ ...options, extensions: [titlesExtension({ model: "claude-haiku-4-5" })] });
 */
export function titlesExtension(options: TitlesOptions): GatewayExtension {
  let context: ExtensionStartContext | undefined;
  let model: Model | undefined;
  const running = new Set<AbortController>();

  async function title(start: ExtensionStartContext, titleModel: Model, turn: TurnCommitted): Promise<void> {
    // One cheap read rules out every later turn: a first exchange's transcript is little more than the turn itself
    // (its messages, and those that arrived while it ran), so a longer one is never read.
    const session = await start.store.getSession(turn.sessionKey);
    const firstTurnAtMost = turn.items.length + (turn.result?.messages.length ?? 0) + LATE_ARRIVALS;
    if (session === undefined || session.lastSeq > firstTurnAtMost) return;
    const transcript = await start.store.readTranscript(turn.sessionKey, { fromSeq: 1 });
    const exchange = firstExchangeOf(transcript, turn.result?.messages ?? []);
    if (exchange === undefined) return;
    const controller = new AbortController();
    running.add(controller);
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      const written = await writeModelTitle(exchange, {
        model: titleModel,
        streamFn: start.streamFn,
        sessionKey: turn.sessionKey,
        signal: controller.signal,
      });
      if (written !== undefined) await start.store.updateSession(turn.sessionKey, { title: written });
    } finally {
      clearTimeout(timer);
      running.delete(controller);
    }
  }

  return {
    name: "titles",
    start(start) {
      model = start.findModel(options.model);
      if (model === undefined) throw new UnknownTitleModelError(options.model);
      context = start;
    },
    afterTurn(turn) {
      if (context === undefined || model === undefined || turn.outcome !== "completed") return;
      if (isSubagentKey(turn.sessionKey)) return;
      // Tracked, never awaited: the turn's hooks (and the session's next turn) go on at once.
      context.track(title(context, model, turn));
    },
    stopping() {
      for (const controller of running) controller.abort();
    },
  };
}
