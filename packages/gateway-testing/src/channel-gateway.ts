import type { Model } from "@chorus/core";
import { fakeModel, type Script, type ScriptedStreamFn, scriptedStreamFn } from "@chorus/core/testing";
import {
  type Channel,
  Gateway,
  type GatewayConfigInput,
  type GatewayOptions,
  type ModelCatalog,
} from "@chorus/gateway";
import { MemorySessionStore } from "@chorus/store";

const MODELS: readonly Model[] = [fakeModel()];
const catalog: ModelCatalog = { find: (id) => MODELS.find((m) => m.id === id), list: () => MODELS };

/** A Gateway over real platform channels, with a scripted model. */
export interface ChannelGateway {
  readonly gateway: Gateway;
  readonly streamFn: ScriptedStreamFn;
  stop(): Promise<void>;
}

/**
 * Starts a Gateway (agent "main" on the scripted fake model, in-memory store) on the given channels; the
 * gateway starts them. Contract: `stop` stops the gateway and with it every channel.
 */
export async function startChannelGateway(options: {
  channels: readonly Channel[];
  config: Omit<GatewayConfigInput, "agents"> & { agents?: GatewayConfigInput["agents"] };
  script: Script;
  gateway?: Partial<GatewayOptions>;
}): Promise<ChannelGateway> {
  const streamFn = scriptedStreamFn(options.script);
  const gateway = new Gateway({
    config: { agents: [{ id: "main", model: "fake-model" }], ...options.config },
    store: new MemorySessionStore(),
    channels: options.channels,
    streamFn,
    models: catalog,
    titles: false,
    ...options.gateway,
  });
  await gateway.start();
  return { gateway, streamFn, stop: () => gateway.stop(0) };
}

/** Contract: the text of everything the model was shown in call `index`, for "does it remember" checks. */
export function modelInput(streamFn: ScriptedStreamFn, index: number): string {
  return JSON.stringify(streamFn.calls[index]?.context.messages ?? []);
}
