import { describe, expect, it } from "vitest";
import {
  loadGatewayConfig,
  parseSessionKey,
  resolveAgent,
  resolveChannelPolicy,
  resolveQueueMode,
  routeInbound,
  TestChannel,
} from "../src/index.js";

const config = loadGatewayConfig({
  agents: [
    { id: "general", model: "m" },
    { id: "peer-agent", model: "m" },
    { id: "group-agent", model: "m" },
    { id: "guild-agent", model: "m" },
    { id: "account-agent", model: "m" },
    { id: "channel-agent", model: "m" },
  ],
  defaultAgent: "general",
  bindings: [
    { agentId: "channel-agent", match: { channel: "discord" } },
    { agentId: "account-agent", match: { channel: "discord", accountId: "work" } },
    { agentId: "guild-agent", match: { guild: "G1" } },
    { agentId: "group-agent", match: { group: "C1" } },
    { agentId: "peer-agent", match: { peer: "U1" } },
  ],
  channels: [{ channel: "discord", queueMode: "collect", groups: { C1: { queueMode: "interrupt" } } }],
});

const channel = new TestChannel({ id: "discord", accountId: "work" });
const message = (overrides: Parameters<TestChannel["buildInbound"]>[0]) => channel.buildInbound(overrides);

describe("bindings: the most specific match wins", () => {
  it.each([
    ["a DM from the bound peer", { text: "", sender: { id: "U1" } }, "peer-agent"],
    ["the bound group, in a guild", { text: "", chatType: "group", chatId: "C1", guildId: "G1" }, "group-agent"],
    ["another group in the bound guild", { text: "", chatType: "group", chatId: "C2", guildId: "G1" }, "guild-agent"],
    [
      "another guild on the bound account",
      { text: "", chatType: "group", chatId: "C3", guildId: "G2" },
      "account-agent",
    ],
    ["a DM from someone else", { text: "", sender: { id: "U2" } }, "account-agent"],
  ] as const)("%s", (_name, overrides, agentId) => {
    expect(resolveAgent(config, message(overrides)).agentId).toBe(agentId);
  });

  it("falls back to the channel binding, then the default agent", () => {
    const other = new TestChannel({ id: "discord", accountId: "home" }).buildInbound({ text: "" });
    expect(resolveAgent(config, other).agentId).toBe("channel-agent");
    const slack = new TestChannel({ id: "slack", accountId: "home" }).buildInbound({ text: "" });
    expect(resolveAgent(config, slack)).toEqual({ agentId: "general", bindingIndex: undefined });
  });

  it("does not depend on the order bindings are written in", () => {
    const reversed = loadGatewayConfig({ ...config, bindings: [...config.bindings].reverse() });
    for (const overrides of [
      { text: "", sender: { id: "U1" } },
      { text: "", chatType: "group" as const, chatId: "C2", guildId: "G1" },
    ]) {
      expect(resolveAgent(reversed, message(overrides)).agentId).toBe(resolveAgent(config, message(overrides)).agentId);
    }
  });
});

describe("sessions per chat", () => {
  it("gives two people's DMs different sessions, a group one session, and a thread its own", () => {
    const dm1 = routeInbound(config, message({ text: "", sender: { id: "U7" } }));
    const dm2 = routeInbound(config, message({ text: "", sender: { id: "U8" } }));
    const groupA = routeInbound(config, message({ text: "", chatType: "group", chatId: "C9", sender: { id: "U7" } }));
    const groupB = routeInbound(config, message({ text: "", chatType: "group", chatId: "C9", sender: { id: "U8" } }));
    const thread = routeInbound(config, message({ text: "", chatType: "group", chatId: "C9", threadId: "T1" }));
    expect(dm1.sessionKey).not.toBe(dm2.sessionKey);
    expect(groupA.sessionKey).toBe(groupB.sessionKey);
    expect(thread.sessionKey).not.toBe(groupA.sessionKey);
    expect(parseSessionKey(thread.sessionKey)).toMatchObject({
      ok: true,
      key: { kind: "group", groupId: "C9", threadId: "T1" },
    });
  });

  it("takes the queue mode from the group, else the channel", () => {
    const policy = resolveChannelPolicy(config, "discord", "work");
    expect(resolveQueueMode(policy, { chatType: "group", chatId: "C1" })).toBe("interrupt");
    expect(resolveQueueMode(policy, { chatType: "group", chatId: "C2" })).toBe("collect");
    expect(resolveQueueMode(policy, { chatType: "dm", chatId: "C1" })).toBe("collect");
  });
});
