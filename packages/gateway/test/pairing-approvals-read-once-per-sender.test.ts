import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import type { PairingScope } from "../src/policy/index.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** Counts the approval reads that reach the store (each one a network round trip on PostgreSQL). */
class CountingStore extends MemorySessionStore {
  approvalReads = 0;
  override async isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    this.approvalReads += 1;
    return super.isApproved(scope, senderId);
  }
}

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", admins: ["admin"] }],
};
const ann = { id: "ann", name: "Ann" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("reads a DM sender's approval from the store once, sees an approval at once, and a revoke at once", async () => {
  const store = new CountingStore();
  h = await startHarness({ store, config, script: ["one", "two", "three"] });
  await h.send({ text: "hello?", sender: ann });
  await h.send({ text: "still there?", sender: ann });
  expect(store.approvalReads).toBe(1);
  const code = /\/pair approve ([A-Z0-9]{8})/.exec(h.channel.transcript("dm-ann")[0] ?? "")?.[1];
  await h.send({ text: `/pair approve ${code}`, sender: { id: "admin", name: "Admin" } });

  for (const text of ["a", "b", "c"]) await h.send({ text, sender: ann });
  expect(h.channel.transcript("dm-ann").slice(-3)).toEqual(["one", "two", "three"]);
  expect(store.approvalReads).toBe(1);

  expect(await h.gateway.pairing.revoke({ channel: "test", accountId: "main" }, "ann")).toBe(true);
  await h.send({ text: "and now?", sender: ann });
  expect(h.streamFn.calls).toHaveLength(3);
  expect(h.channel.transcript("dm-ann").at(-1)).toMatch(/\/pair approve [A-Z0-9]{8}/);
});

it("reads the store on every DM when approvals are not kept (a store other gateways share and write)", async () => {
  const store = new CountingStore();
  h = await startHarness({ store, config, gateway: { pairing: { cacheApprovals: false } } });
  await h.send({ text: "hello?", sender: ann });
  await h.send({ text: "hello?", sender: ann });
  // Each message: the intake's lookup and the pairing request's own check.
  expect(store.approvalReads).toBe(4);
});

it("keeps an approval read from the store only `forMs` when other gateways write approvals too (a cluster)", async () => {
  const store = new CountingStore();
  let clock = 1_000_000;
  const scope = { channel: "test", accountId: "main" };
  await store.addApproved(scope, "ann", clock);
  h = await startHarness({
    store,
    config,
    script: ["one", "two", "three"],
    gateway: { pairing: { cacheApprovals: { forMs: 5000 }, now: () => clock } },
  });
  await h.send({ text: "a", sender: ann });
  await h.send({ text: "b", sender: ann });
  expect(store.approvalReads).toBe(1);
  // Another gateway revokes the approval in the shared store: seen once the kept answer is 5 s old.
  await store.removeApproved(scope, "ann");
  clock += 5000;
  await h.send({ text: "c", sender: ann });
  expect(store.approvalReads).toBe(2);
  expect(h.streamFn.calls).toHaveLength(2);
  expect(h.channel.transcript("dm-ann").at(-1)).toMatch(/\/pair approve [A-Z0-9]{8}/);
});
