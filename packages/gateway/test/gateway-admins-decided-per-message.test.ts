import type { InboundMessage } from "@chorus/channel";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("the isAdmin option", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("makes a sender an admin per message without touching the configuration", async () => {
    const local = new Set<string>();
    h = await startHarness({
      config: { agents: [{ id: "main", model: "fake-model" }], channels: [{ channel: "test", dmPolicy: "disabled" }] },
      gateway: { isAdmin: (message: InboundMessage) => local.has(message.sender.id) },
    });
    // Not (yet) an admin: DMs are disabled and /agents is refused.
    await h.send({ text: "/agents", sender: { id: "browser-1" } });
    expect(h.channel.transcript("dm-browser-1")).toEqual([]);

    local.add("browser-1");
    await h.send({ text: "/agents", sender: { id: "browser-1" } });
    expect(h.channel.transcript("dm-browser-1").join("\n")).toContain("**Fleet**: 1 agent(s)");
    expect(h.gateway.config.channels.flatMap((entry) => entry.admins ?? [])).toEqual([]);

    await h.send({ text: "/agents", sender: { id: "browser-2" } });
    expect(h.channel.transcript("dm-browser-2")).toEqual([]);
  });
});
