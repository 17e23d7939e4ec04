import { MemorySessionStore, type StoreFence } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import type { ExtensionStartContext, GatewayExtension, OwnershipChange } from "../src/extension/index.js";
import type { HandedOffMessage, OwnershipEvent, SessionOwnership } from "../src/ownership/index.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

/** A hand-driven `SessionOwnership`: the test says which sessions are owned and sends the events. */
class FakeOwnership implements SessionOwnership {
  readonly instanceId = "test";
  readonly owned = new Set<string>();
  listener: ((event: OwnershipEvent) => void) | undefined;
  async start(listener: (event: OwnershipEvent) => void): Promise<void> {
    this.listener = listener;
  }
  fenceFor(sessionKey: string): StoreFence | undefined {
    return this.owned.has(sessionKey) ? { epoch: 1 } : undefined;
  }
  async handOff(_message: HandedOffMessage): Promise<void> {}
  async stop(): Promise<void> {}
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("tells an extension when this instance gains or loses sessions, and which it owns then", async () => {
  const ownership = new FakeOwnership();
  const store = Object.assign(new MemorySessionStore(), { ownership });
  const heard: string[] = [];
  let context: ExtensionStartContext | undefined;
  const follower: GatewayExtension = {
    name: "follower",
    start: (started) => {
      context = started;
    },
    ownershipChanged: (change: OwnershipChange) => {
      heard.push(`${change.type}: owns ${KEY} = ${context?.owns(KEY)}`);
    },
  };
  const failing: GatewayExtension = {
    name: "failing",
    ownershipChanged: () => {
      throw new Error("boom");
    },
  };
  h = await startHarness({ store, gateway: { extensions: [failing, follower] } });
  expect(context?.owns(KEY)).toBe(false);

  ownership.owned.add(KEY);
  ownership.listener?.({ type: "gained", shards: [3], interruptedRuns: [], requeuedOutbox: [], unanswered: [] });
  await h.gateway.idle();
  ownership.owned.delete(KEY);
  ownership.listener?.({ type: "lost" });
  await h.gateway.idle();

  // A throwing hook of another extension is contained: this one still hears both changes.
  expect(heard).toEqual([`gained: owns ${KEY} = true`, `lost: owns ${KEY} = false`]);
});

it("owns every session without a cluster, and never hears an ownership change", async () => {
  let context: ExtensionStartContext | undefined;
  const heard: OwnershipChange[] = [];
  const alone: GatewayExtension = {
    name: "alone",
    start: (started) => {
      context = started;
    },
    ownershipChanged: (change) => {
      heard.push(change);
    },
  };
  h = await startHarness({ gateway: { extensions: [alone] } });
  await h.send({ text: "hello", sender: { id: "user-1" } });
  expect(context?.owns(KEY)).toBe(true);
  expect(heard).toEqual([]);
});
