import { MemorySessionStore, type TurnCommit, type TurnCommitResult } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** A memory store whose final turn commit for one session waits until the test lets it through. */
class SlowCommitStore extends MemorySessionStore {
  #release: (() => void) | undefined;
  readonly #held: Promise<void> = new Promise((resolve) => {
    this.#release = resolve;
  });
  heldSession: string | undefined;

  override async commitTurn(turn: TurnCommit): Promise<TurnCommitResult> {
    if (turn.run?.patch?.status !== undefined && turn.sessionKey === this.heldSession) await this.#held;
    return super.commitTurn(turn);
  }

  letCommitThrough(): void {
    this.#release?.();
  }
}

let h: Harness | undefined;
let store: SlowCommitStore | undefined;

afterEach(async () => {
  store?.letCommitThrough();
  await h?.close();
  h = undefined;
});

it("lets another session's turn run while a finished turn is still being committed (cap of one turn)", async () => {
  store = new SlowCommitStore();
  h = await startHarness({ store, gateway: { maxConcurrentTurns: 1 }, script: () => "ok" });
  // Ann's first turn commits normally; her second one finishes its model call and then waits in its commit.
  await h.send({ text: "first", sender: { id: "ann", name: "Ann" } });
  const annKey = (await store.listSessions())[0]?.key;
  expect(annKey).toBeDefined();
  store.heldSession = annKey;
  await h.channel.inject({ text: "second", sender: { id: "ann", name: "Ann" } });
  await h.channel.inject({ text: "hello", sender: { id: "bob", name: "Bob" } });
  await expect.poll(() => chatTexts(h!.channel, "dm-bob")).toEqual(["ok"]);
  // Bob was answered although the only slot's previous turn has not been committed, so Ann's reply is not out yet.
  expect(chatTexts(h.channel, "dm-ann")).toEqual(["ok"]);
  store.letCommitThrough();
  await h.gateway.idle();
  expect(chatTexts(h.channel, "dm-ann")).toEqual(["ok", "ok"]);
  expect(h.streamFn.calls).toHaveLength(3);
});
