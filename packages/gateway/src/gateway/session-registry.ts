import type { SessionRecord } from "@chorus/store";
import type { GatewayConfig } from "../config/gateway-config-schema.js";
import { type ChannelPolicy, resolveChannelPolicy } from "../config/resolve-channel-policy.js";
import { resolveQueueMode } from "../routing/route-inbound.js";
import { sessionChatOf } from "../routing/session-chat-of.js";
import type { PreparedAgent } from "./prepare-agent.js";
import { SessionRuntime } from "./session-runtime.js";
import type { SessionRuntimeDeps } from "./session-runtime-deps.js";

/** What the registry needs to build a session's runtime. */
export interface SessionRegistryDeps {
  config: GatewayConfig;
  agents: ReadonlyMap<string, PreparedAgent>;
  /** How long an idle session keeps its state; 0 or less drops it at once. */
  idleEvictMs: number;
  /** The runtimes' dependencies; called once per new runtime (the gateway builds them after the registry). */
  runtimeDeps(): SessionRuntimeDeps;
  /** A session idle for `idleEvictMs` was dropped from memory. */
  onEvicted?(session: { readonly sessionKey: string; readonly agentId: string }): void;
}

/**
 * The sessions with live state (a lane, maybe an Agent) in memory: made on first use, dropped `idleEvictMs` after
 * they go idle. Contract: one runtime per session key at a time; a busy session (running or queued) is never dropped.
 */
export class SessionRegistry {
  readonly #deps: SessionRegistryDeps;
  readonly #sessions = new Map<string, SessionRuntime>();
  readonly #evictions = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(deps: SessionRegistryDeps) {
    this.#deps = deps;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(key: string): SessionRuntime | undefined {
    return this.#sessions.get(key);
  }

  values(): IterableIterator<SessionRuntime> {
    return this.#sessions.values();
  }

  /**
   * The session's runtime, made now if it has none; a pending eviction is called off. `createdBy`: the session was
   * just created by the stored message with this seq (under this lease epoch in a cluster), which the runtime is
   * about to take; a runtime made now then starts its first turn without reading the transcript.
   */
  runtimeFor(
    session: SessionRecord,
    policy?: ChannelPolicy,
    createdBy?: { readonly seq: number; readonly epoch: number | undefined },
  ): SessionRuntime {
    const eviction = this.#evictions.get(session.key);
    if (eviction !== undefined) {
      clearTimeout(eviction);
      this.#evictions.delete(session.key);
    }
    const existing = this.#sessions.get(session.key);
    if (existing !== undefined) return existing;
    const prepared = this.#deps.agents.get(session.agentId);
    if (prepared === undefined) throw new Error(`no agent ${session.agentId} is configured (session ${session.key})`);
    const chat = sessionChatOf(session);
    const channelPolicy = policy ?? resolveChannelPolicy(this.#deps.config, session.channel, session.accountId);
    const mode = resolveQueueMode(channelPolicy, chat.target);
    const group = chat.target.chatType === "group" ? channelPolicy.groups[chat.target.chatId] : undefined;
    const runtime = new SessionRuntime(
      this.#deps.runtimeDeps(),
      prepared,
      session,
      chat,
      mode,
      group?.toolPolicy,
      createdBy,
    );
    this.#sessions.set(session.key, runtime);
    return runtime;
  }

  /** Schedules the runtime's eviction (now when `idleEvictMs` ≤ 0); it is kept if it is busy again by then. */
  onIdle(runtime: SessionRuntime): void {
    const evict = (): void => {
      this.#evictions.delete(runtime.key);
      if (runtime.lane.busy || runtime.lane.queued > 0) return;
      runtime.dropAgent();
      if (this.#sessions.get(runtime.key) === runtime) this.#sessions.delete(runtime.key);
      this.#deps.onEvicted?.({ sessionKey: runtime.key, agentId: runtime.agentId });
    };
    const after = this.#deps.idleEvictMs;
    if (after <= 0) {
      evict();
      return;
    }
    const previous = this.#evictions.get(runtime.key);
    if (previous !== undefined) clearTimeout(previous);
    const timer = setTimeout(evict, after);
    timer.unref?.();
    this.#evictions.set(runtime.key, timer);
  }

  /** Drops every idle session now. Contract: busy sessions are kept; returns how many were dropped. */
  evictIdle(): number {
    let dropped = 0;
    for (const runtime of [...this.#sessions.values()]) {
      if (runtime.lane.busy || runtime.lane.queued > 0) continue;
      const timer = this.#evictions.get(runtime.key);
      if (timer !== undefined) clearTimeout(timer);
      this.#evictions.delete(runtime.key);
      runtime.dropAgent();
      this.#sessions.delete(runtime.key);
      this.#deps.onEvicted?.({ sessionKey: runtime.key, agentId: runtime.agentId });
      dropped++;
    }
    return dropped;
  }

  /** Forgets every session and pending eviction (at shutdown, once turns have ended). */
  clear(): void {
    for (const timer of this.#evictions.values()) clearTimeout(timer);
    this.#evictions.clear();
    this.#sessions.clear();
  }
}
