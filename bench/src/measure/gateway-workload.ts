import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import type { InboundMessage, SendTarget, SentMessage, SessionStore, TestChannel } from "@chorus/gateway";
import { forceGc } from "./gc.js";
import { percentile } from "./stats.js";

/** The part of the Gateway the workload drives (typed locally: the runtime may not be exported yet). */
export interface GatewayLike {
  start(): Promise<void>;
  stop(deadlineMs?: number): Promise<void>;
  idle(): Promise<void>;
  readonly activeSessionCount: number;
  /** Drops idle sessions' Agents now (instead of after the idle timeout). */
  evictIdleSessions(): number;
}

/** How to build the pieces; the store is the parameter a store suite varies. */
export interface GatewayWorkloadDeps {
  createGateway(options: Record<string, unknown>): GatewayLike;
  createChannel(): TestChannel;
  createStore(): SessionStore | Promise<SessionStore>;
}

export interface GatewayWorkloadOptions {
  sessions: number;
  messagesPerSession: number;
}

export interface GatewayWorkloadResult {
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** heapUsed growth per session after every session went idle, store contents included. */
  heapBytesPerIdleSession: number;
  /** Sessions still holding live state (lane or Agent) in memory once idle. */
  liveSessionsWhenIdle: number;
}

/**
 * `sessions` DM users each send `messagesPerSession` messages, one after another (the next when the reply to the
 * previous arrives), all users at once, through a TestChannel into a Gateway with a zero-latency scripted model.
 * Reply latency is from injection to the reply's send. Heap per idle session is the heapUsed growth (forced
 * collections before and after) divided by the sessions, once every session is idle and evicted; it
 * includes what the store keeps in the heap (everything, for the in-memory store).
 * Contract: needs node --expose-gc.
 */
export async function measureGatewayWorkload(
  deps: GatewayWorkloadDeps,
  options: GatewayWorkloadOptions,
): Promise<GatewayWorkloadResult> {
  const store = await deps.createStore();
  const channel = deps.createChannel();
  const model = fakeModel();
  const gateway = deps.createGateway({
    config: { agents: [{ id: "main", model: model.id }], channels: [{ channel: channel.id, dmPolicy: "open" }] },
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(() => "ok"),
    models: { find: (id: string) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    rateCap: false,
    titles: false,
  });
  await gateway.start();

  const latencies: number[] = [];
  const sentAt = new Map<string, number>();
  const remaining = new Map<string, number>();
  let nextId = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  let outstanding = options.sessions * options.messagesPerSession;

  const inject = (user: string): void => {
    const id = `m${nextId++}`;
    sentAt.set(`dm-${user}`, performance.now());
    const message: InboundMessage = {
      channel: channel.id,
      accountId: channel.accountId,
      chatType: "dm",
      chatId: `dm-${user}`,
      messageId: id,
      eventId: id,
      sender: { id: user, name: user, isBot: false },
      text: `hello ${id}`,
      mentionsBot: false,
      replyToBot: false,
      attachments: [],
      receivedAt: Date.now(),
    };
    void channel.inject(message);
  };

  const realSend = channel.send.bind(channel);
  channel.send = async (target: SendTarget, outbound): Promise<SentMessage> => {
    const sent = await realSend(target, outbound);
    const started = sentAt.get(target.chatId);
    if (started !== undefined) latencies.push(performance.now() - started);
    const user = target.chatId.slice(3);
    const left = (remaining.get(user) ?? 1) - 1;
    remaining.set(user, left);
    if (left > 0) setImmediate(() => inject(user));
    if (--outstanding === 0) done();
    return sent;
  };

  forceGc();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  for (let i = 0; i < options.sessions; i++) {
    const user = `u${i}`;
    remaining.set(user, options.messagesPerSession);
    inject(user);
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await gateway.idle();
  // Sessions keep their Agent for the idle timeout (60 s by default); evict now to measure idle sessions.
  gateway.evictIdleSessions();

  // What the test channel records is the harness's memory, not the gateway's.
  channel.calls.length = 0;
  channel.messages.clear();
  sentAt.clear();
  remaining.clear();
  forceGc();
  const heapAfter = process.memoryUsage().heapUsed;
  const live = gateway.activeSessionCount;
  await gateway.stop(0);
  await (store as { close?: () => Promise<void> }).close?.();

  const sorted = latencies.slice().sort((a, b) => a - b);
  const messages = options.sessions * options.messagesPerSession;
  return {
    messages,
    seconds,
    messagesPerSecond: messages / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    heapBytesPerIdleSession: (heapAfter - heapBefore) / options.sessions,
    liveSessionsWhenIdle: live,
  };
}
