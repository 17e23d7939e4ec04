import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import type { PairingScope } from "../src/policy/index.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** A store that can tell whether anyone is approved on an account (as PostgreSQL's does), counting both reads. */
class ScopeAwareStore extends MemorySessionStore {
  senderReads = 0;
  scopeReads = 0;
  readonly #approved = new Set<string>();
  override async isApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    this.senderReads += 1;
    return super.isApproved(scope, senderId);
  }
  override async addApproved(scope: PairingScope, senderId: string, approvedAt: number): Promise<void> {
    await super.addApproved(scope, senderId, approvedAt);
    this.#approved.add(`${scope.channel}/${scope.accountId}/${senderId}`);
  }
  override async removeApproved(scope: PairingScope, senderId: string): Promise<boolean> {
    this.#approved.delete(`${scope.channel}/${scope.accountId}/${senderId}`);
    return super.removeApproved(scope, senderId);
  }
  async hasApproved(scope: PairingScope): Promise<boolean> {
    this.scopeReads += 1;
    return [...this.#approved].some((key) => key.startsWith(`${scope.channel}/${scope.accountId}/`));
  }
}

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["admin"] }],
};
const scope = { channel: "test", accountId: "main" };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("reads once that nobody is approved on an account, then answers each new sender without a read of their own", async () => {
  const store = new ScopeAwareStore();
  h = await startHarness({ store, config, script: ["one", "two", "three"] });
  for (const sender of ["ann", "bob", "cid"]) await h.send({ text: "hello", sender: { id: sender, name: sender } });
  expect([store.scopeReads, store.senderReads]).toEqual([1, 0]);
  expect(h.streamFn.calls).toHaveLength(3);
});

it("reads each sender's approval as before once someone is approved on the account", async () => {
  const store = new ScopeAwareStore();
  await store.addApproved(scope, "ann", 1);
  h = await startHarness({ store, config, script: ["one", "two", "three"] });
  await h.send({ text: "hello", sender: { id: "ann", name: "Ann" } });
  await h.send({ text: "hello", sender: { id: "bob", name: "Bob" } });
  await h.send({ text: "again", sender: { id: "ann", name: "Ann" } });
  expect([store.scopeReads, store.senderReads]).toEqual([1, 2]);
});

it("sees an approval made here at once, though it had read that nobody was approved", async () => {
  const store = new ScopeAwareStore();
  h = await startHarness({
    store,
    config: { ...config, channels: [{ channel: "test", dmPolicy: "pairing" as const, admins: ["admin"] }] },
    script: ["one", "two"],
  });
  await h.send({ text: "hello?", sender: { id: "ann", name: "Ann" } });
  const code = /\/pair approve ([A-Z0-9]{8})/.exec(h.channel.transcript("dm-ann")[0] ?? "")?.[1];
  await h.send({ text: `/pair approve ${code}`, sender: { id: "admin", name: "Admin" } });
  await h.send({ text: "now?", sender: { id: "ann", name: "Ann" } });
  expect(h.channel.transcript("dm-ann").at(-1)).toBe("one");
  // Another sender after the approval: the account has an approved sender now, so theirs is read.
  await h.send({ text: "me too?", sender: { id: "bob", name: "Bob" } });
  expect(h.channel.transcript("dm-bob")[0]).toMatch(/\/pair approve [A-Z0-9]{8}/);
  expect([store.scopeReads, store.senderReads]).toEqual([1, 1]);
});
