import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("DM pairing through the gateway", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("gives an unknown sender a code, lets an admin approve it in chat, then answers the sender", async () => {
    h = await startHarness({
      config: { agents: [{ id: "main", model: "fake-model" }], channels: [{ channel: "test", admins: ["admin"] }] },
      script: ["Welcome, Ann!"],
    });
    await h.send({ text: "hello?", sender: { id: "ann", name: "Ann" } });
    expect(h.streamFn.calls).toHaveLength(0);
    const prompt = h.channel.transcript("dm-ann")[0] ?? "";
    const code = /\/pair approve ([A-Z0-9]{8})/.exec(prompt)?.[1];
    expect(code).toBeDefined();

    await h.send({ text: "/pair list", sender: { id: "admin", name: "Admin" } });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain(code);

    // Not an admin: refused, and still unpaired.
    await h.send({ text: `/pair approve ${code}`, sender: { id: "bob", name: "Bob" } });
    expect(h.channel.transcript("dm-bob").at(-1) ?? "").not.toContain("Approved");

    await h.send({ text: `/pair approve ${code!.toLowerCase()}`, sender: { id: "admin", name: "Admin" } });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("Approved Ann (ann)");

    await h.send({ text: "hello again", sender: { id: "ann", name: "Ann" } });
    expect(h.channel.transcript("dm-ann").at(-1)).toBe("Welcome, Ann!");
    expect(h.streamFn.calls).toHaveLength(1);
  });

  it("repeats the same code to a sender who writes again while pending", async () => {
    h = await startHarness({ config: { agents: [{ id: "main", model: "fake-model" }] } });
    await h.send({ text: "one", sender: { id: "ann", name: "Ann" } });
    await h.send({ text: "two", sender: { id: "ann", name: "Ann" } });
    const [first, second] = h.channel.transcript("dm-ann");
    expect(first).toBeDefined();
    expect(second).toBe(first);
  });
});
