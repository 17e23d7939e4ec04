import { describe, expect, it } from "vitest";
import { InMemoryPairingStore, PAIRING_CODE_ALPHABET, PairingService } from "../src/index.js";

const scope = { channel: "telegram", accountId: "main" };
const HOUR = 60 * 60 * 1000;

function service() {
  let now = 1_000_000;
  const pairing = new PairingService(new InMemoryPairingStore(), { now: () => now });
  return { pairing, advance: (ms: number) => (now += ms) };
}

describe("DM pairing", () => {
  it("issues an 8-character code from the unambiguous alphabet, and repeats it while pending", async () => {
    const { pairing } = service();
    const first = await pairing.request(scope, { id: "u1", name: "Ann" });
    if (first.status !== "created") throw new Error(first.status);
    expect(first.code).toHaveLength(8);
    for (const ch of first.code) expect(PAIRING_CODE_ALPHABET).toContain(ch);
    expect(PAIRING_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(await pairing.request(scope, { id: "u1", name: "Ann" })).toEqual({
      status: "pending",
      code: first.code,
      expiresAt: first.expiresAt,
    });
  });

  it("lets an admin approve a code (typed loosely), after which the sender is approved", async () => {
    const { pairing } = service();
    const outcome = await pairing.request(scope, { id: "u1", name: "Ann" });
    if (outcome.status !== "created") throw new Error(outcome.status);
    const typed = `${outcome.code.slice(0, 4).toLowerCase()}-${outcome.code.slice(4)}`;
    expect(await pairing.approve(scope, typed)).toMatchObject({
      ok: true,
      request: { senderId: "u1", senderName: "Ann" },
    });
    expect(await pairing.isApproved(scope, "u1")).toBe(true);
    expect(await pairing.request(scope, { id: "u1", name: "Ann" })).toEqual({ status: "already-approved" });
    expect(await pairing.list(scope)).toEqual([]);
    expect(await pairing.isApproved({ ...scope, accountId: "other" }, "u1")).toBe(false);
  });

  it("denies codes and rejects unknown ones", async () => {
    const { pairing } = service();
    const outcome = await pairing.request(scope, { id: "u1", name: "Ann" });
    if (outcome.status !== "created") throw new Error(outcome.status);
    expect(await pairing.deny(scope, outcome.code)).toMatchObject({ ok: true });
    expect(await pairing.isApproved(scope, "u1")).toBe(false);
    expect(await pairing.approve(scope, outcome.code)).toEqual({ ok: false, reason: "unknown-code" });
  });

  it("expires codes after one hour", async () => {
    const { pairing, advance } = service();
    const outcome = await pairing.request(scope, { id: "u1", name: "Ann" });
    if (outcome.status !== "created") throw new Error(outcome.status);
    advance(HOUR);
    expect(await pairing.list(scope)).toEqual([]);
    expect(await pairing.approve(scope, outcome.code)).toEqual({ ok: false, reason: "expired" });
    expect(await pairing.isApproved(scope, "u1")).toBe(false);
  });

  it("keeps at most three pending per channel account; expired ones free their slot", async () => {
    const { pairing, advance } = service();
    for (const id of ["a", "b", "c"]) expect((await pairing.request(scope, { id, name: id })).status).toBe("created");
    expect(await pairing.request(scope, { id: "d", name: "d" })).toEqual({ status: "too-many-pending" });
    expect((await pairing.request({ ...scope, accountId: "two" }, { id: "d", name: "d" })).status).toBe("created");
    expect((await pairing.list(scope)).map((request) => request.senderId)).toEqual(["a", "b", "c"]);
    advance(HOUR);
    expect((await pairing.request(scope, { id: "d", name: "d" })).status).toBe("created");
  });

  it("never hands out a code that is already pending", async () => {
    const codes = ["AAAAAAAA", "AAAAAAAA", "BBBBBBBB"];
    const pairing = new PairingService(new InMemoryPairingStore(), { generateCode: () => codes.shift() ?? "CCCCCCCC" });
    expect(await pairing.request(scope, { id: "a", name: "a" })).toMatchObject({ code: "AAAAAAAA" });
    expect(await pairing.request(scope, { id: "b", name: "b" })).toMatchObject({ code: "BBBBBBBB" });
  });

  it("lets an approval be revoked", async () => {
    const { pairing } = service();
    const outcome = await pairing.request(scope, { id: "u1", name: "Ann" });
    if (outcome.status !== "created") throw new Error(outcome.status);
    await pairing.approve(scope, outcome.code);
    expect(await pairing.revoke(scope, "u1")).toBe(true);
    expect(await pairing.isApproved(scope, "u1")).toBe(false);
  });
});
