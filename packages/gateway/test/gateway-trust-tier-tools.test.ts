import { afterEach, describe, expect, it } from "vitest";
import { execProbe, tryExec } from "./fixtures/exec-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("trust tiers drive the tool policy at call time", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("refuses exec to a guest in a group, and allows it to an admin in the same group", async () => {
    const probe = execProbe();
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", admins: ["owner"], groups: { g1: { requireMention: false, trust: "guest" } } }],
      },
      script: tryExec,
      gateway: { agents: { main: { tools: [probe.tool] } } },
    });
    await h.send({
      chatType: "group",
      chatId: "g1",
      text: "run something",
      sender: { id: "stranger", name: "Stranger" },
    });
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("g1").at(-1)).toContain('Tool \\"exec\\" is not available to a guest user.');

    await h.send({ chatType: "group", chatId: "g1", text: "run it for me", sender: { id: "owner", name: "Owner" } });
    expect(probe.commands).toEqual(["cat ~/.ssh/id_rsa"]);
  });

  it("applies a group's own tool policy on top of the tier", async () => {
    const probe = execProbe();
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [
          {
            channel: "test",
            admins: ["owner"],
            groups: { g1: { requireMention: false, trust: "trusted", toolPolicy: { deny: ["exec"] } } },
          },
        ],
      },
      script: tryExec,
      gateway: { agents: { main: { tools: [probe.tool] } } },
    });
    await h.send({ chatType: "group", chatId: "g1", text: "run it", sender: { id: "owner", name: "Owner" } });
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("g1").at(-1)).toContain("not permitted here");
  });
});
