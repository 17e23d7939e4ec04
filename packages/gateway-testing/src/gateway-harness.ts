import type { Model } from "@chorus/core";
import { fakeModel, type Script, type ScriptedStreamFn, scriptedStreamFn } from "@chorus/core/testing";
import {
  Gateway,
  type GatewayConfigInput,
  type GatewayOptions,
  type InjectedMessage,
  type ModelCatalog,
  TestChannel,
  type TestChannelOptions,
} from "@chorus/gateway";
import { MemorySessionStore, type SessionStore } from "@chorus/store";

const MODELS: readonly Model[] = [fakeModel(), fakeModel({ id: "fake-large" })];

/** A model catalog over plain models (e.g. a priced model for a budget test). */
export function modelCatalog(models: readonly Model[]): ModelCatalog {
  return { find: (id) => models.find((model) => model.id === id), list: () => models };
}

const catalog = modelCatalog(MODELS);

/**
 * The harness's default config: one agent "main" on fake-model; the test channel "test/main" with DMs and groups open
 * and "admin" as admin.
 */
export const HARNESS_CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], groupPolicy: "open" }],
};

/** A started Gateway on a TestChannel, for tests that drive a whole gateway one message at a time. */
export interface Harness {
  gateway: Gateway;
  channel: TestChannel;
  streamFn: ScriptedStreamFn;
  store: SessionStore;
  /** Injects a message and waits until the gateway is idle. */
  send(message: InjectedMessage): Promise<void>;
  close(): Promise<void>;
}

/** What `startHarness` may be given; everything is optional. */
export interface HarnessOptions {
  /** The scripted model's answers (`["Hello!"]` by default). */
  script?: Script;
  /** The gateway config (`HARNESS_CONFIG` by default). */
  config?: GatewayConfigInput;
  /** Options of the TestChannel, whose id and account are always "test" and "main". */
  channel?: TestChannelOptions;
  /** The store (a fresh `MemorySessionStore` by default). */
  store?: SessionStore;
  /** Any other Gateway options (extensions, housekeeping, a stream function of the test's own…), given last. */
  gateway?: Partial<GatewayOptions>;
}

/**
 * Starts a Gateway on a TestChannel ("test/main", the bot's own id "bot"), a scripted model among `fake-model` and
 * `fake-large`, and replies in block mode. Contract: the gateway has started when it resolves; `send` resolves once
 * the gateway is idle again; `close` stops it.
 * @example const h = await startHarness({ script: ["hi"] }); await h.send({ text: "hello" }); await h.close();
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const channel = new TestChannel({ id: "test", accountId: "main", ...options.channel });
  const streamFn = scriptedStreamFn(options.script ?? ["Hello!"]);
  const store = options.store ?? new MemorySessionStore();
  const gateway = new Gateway({
    config: options.config ?? HARNESS_CONFIG,
    store,
    channels: [channel],
    streamFn,
    models: catalog,
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    ...options.gateway,
  });
  await gateway.start();
  return {
    gateway,
    channel,
    streamFn,
    store,
    async send(message) {
      await channel.inject(message);
      await gateway.idle();
    },
    async close() {
      await gateway.stop(0);
    },
  };
}
