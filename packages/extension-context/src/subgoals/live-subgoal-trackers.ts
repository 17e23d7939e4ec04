import type { SubgoalTracker } from "@chorus/core";
import type { ExtensionStartContext } from "@chorus/gateway";
import type { SessionSettingWriter } from "../session-setting-writer.js";

/** One session Agent's subgoal tracking: its tracker and the writer that stores its registry. */
export interface LiveSubgoals {
  readonly tracker: SubgoalTracker;
  readonly writer: SessionSettingWriter;
}

/**
 * The subgoal trackers in memory at one gateway, by session: /status reads the newest, `/new` resets them all. An
 * Agent's tracker stays here after the Agent is let go until its last extraction and write are done (so `/new` still
 * stops them). Contract: per started gateway (`liveSubgoalTrackersOf`), so two gateways in one process never mix.
 */
export class LiveSubgoalTrackers {
  readonly #sessions = new Map<string, LiveSubgoals[]>();

  add(sessionKey: string, live: LiveSubgoals): void {
    this.#sessions.set(sessionKey, [...(this.#sessions.get(sessionKey) ?? []), live]);
  }

  remove(sessionKey: string, live: LiveSubgoals): void {
    const left = (this.#sessions.get(sessionKey) ?? []).filter((candidate) => candidate !== live);
    if (left.length === 0) this.#sessions.delete(sessionKey);
    else this.#sessions.set(sessionKey, left);
  }

  /** The newest tracker of the session, if one is in memory. */
  newest(sessionKey: string): LiveSubgoals | undefined {
    return this.#sessions.get(sessionKey)?.at(-1);
  }

  /** Removes and returns every tracker of the session. */
  take(sessionKey: string): readonly LiveSubgoals[] {
    const taken = this.#sessions.get(sessionKey) ?? [];
    this.#sessions.delete(sessionKey);
    return taken;
  }
}

const byGateway = new WeakMap<ExtensionStartContext, LiveSubgoalTrackers>();

/** The live trackers of the gateway `context` was started by. */
export function liveSubgoalTrackersOf(context: ExtensionStartContext): LiveSubgoalTrackers {
  let trackers = byGateway.get(context);
  if (trackers === undefined) {
    trackers = new LiveSubgoalTrackers();
    byGateway.set(context, trackers);
  }
  return trackers;
}
