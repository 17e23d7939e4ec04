import { type GatewayEvent, parseSessionKey, rootKeyOf } from "@chorus/gateway";
import { GROUP_CHAT_ID, type WebchatActivity, type WebchatRoom } from "./webchat-protocol.js";

/** Where an activity goes: the room and chat of the root session it belongs to. */
export interface RoutedActivity {
  readonly room: WebchatRoom;
  /** The browser id for a DM, GROUP_CHAT_ID for the group. */
  readonly chatId: string;
  readonly activity: WebchatActivity;
}

/**
 * Turns gateway events into the page's activity lines, for the sessions of one WebChat account.
 * Contract: events of other channels or accounts give undefined; remembers run depths between events (bounded).
 */
export class WebchatActivityMapper {
  readonly #accountId: string;
  readonly #depths = new Map<string, number>();

  constructor(accountId: string) {
    this.#accountId = accountId;
  }

  map(event: GatewayEvent): RoutedActivity | undefined {
    if (!("sessionKey" in event)) return undefined;
    const place = this.#placeOf(event.sessionKey);
    if (place === undefined) return undefined;
    const activity = this.#activityOf(event);
    return activity === undefined ? undefined : { ...place, activity };
  }

  #activityOf(event: GatewayEvent): WebchatActivity | undefined {
    switch (event.type) {
      case "run_started":
        this.#remember(event.runId, event.depth);
        return { kind: "run_started", runId: event.runId, depth: event.depth, label: `${event.agentId} is working` };
      case "run_ended": {
        const depth = this.#depths.get(event.runId) ?? 0;
        this.#depths.delete(event.runId);
        return {
          kind: "run_ended",
          runId: event.runId,
          depth,
          label: event.outcome === "completed" ? "done" : `${event.outcome}${event.error ? `: ${event.error}` : ""}`,
          ok: event.outcome === "completed",
        };
      }
      case "tool_activity":
        return {
          kind: event.phase === "start" ? "tool_start" : "tool_end",
          runId: event.runId,
          depth: this.#depths.get(event.runId) ?? 0,
          label:
            event.compressed === undefined
              ? event.toolName
              : `${event.toolName} (output compressed ${event.compressed.rawTokens}→${event.compressed.compressedTokens} tokens)`,
          ...(event.phase === "end" ? { ok: event.isError !== true } : {}),
        };
      case "subagent_spawned":
        this.#remember(event.runId, event.depth);
        return {
          kind: "subagent_spawned",
          runId: event.runId,
          depth: event.depth,
          label: `sub-agent ${event.agentId} started`,
        };
      case "subagent_completed":
        return {
          kind: "subagent_completed",
          runId: event.runId,
          depth: this.#depths.get(event.runId) ?? 1,
          label: `sub-agent ${event.outcome}`,
          ok: event.outcome === "completed",
        };
      default:
        return undefined;
    }
  }

  #placeOf(sessionKey: string): { room: WebchatRoom; chatId: string } | undefined {
    let root: string;
    try {
      root = rootKeyOf(sessionKey);
    } catch {
      return undefined;
    }
    const parsed = parseSessionKey(root);
    if (!parsed.ok || parsed.key.kind === "subagent") return undefined;
    const key = parsed.key;
    if (key.channel !== "webchat" || key.accountId !== this.#accountId) return undefined;
    return key.kind === "dm" ? { room: "dm", chatId: key.peerId } : { room: "group", chatId: GROUP_CHAT_ID };
  }

  #remember(runId: string, depth: number): void {
    this.#depths.set(runId, depth);
    if (this.#depths.size > 1000) {
      const oldest = this.#depths.keys().next().value;
      if (oldest !== undefined) this.#depths.delete(oldest);
    }
  }
}
