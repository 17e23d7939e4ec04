import { describe, expect, it } from "vitest";
import {
  BotLoopBrake,
  type ChannelPolicyEntryInput,
  decideInbound,
  type InboundPolicyContext,
  loadGatewayConfig,
  OneTimeHints,
  resolveChannelPolicy,
  TestChannel,
  trustTierOf,
} from "../src/index.js";

const SELF = "bot-self";
const channel = new TestChannel({ id: "discord", accountId: "main" });

function contextFor(entry: Partial<ChannelPolicyEntryInput> = {}, extra: Partial<InboundPolicyContext> = {}) {
  const config = loadGatewayConfig({
    agents: [{ id: "a", model: "m" }],
    channels: [{ channel: "discord", admins: ["admin"], ...entry }],
  });
  return { policy: resolveChannelPolicy(config, "discord", "main"), selfId: SELF, botHops: 0, paired: false, ...extra };
}

const dm = (senderId: string, isBot = false) => channel.buildInbound({ text: "hi", sender: { id: senderId, isBot } });
const inGroup = (chatId: string, extra: Parameters<TestChannel["buildInbound"]>[0] = { text: "hi" }) =>
  channel.buildInbound({ ...extra, chatType: "group", chatId });

describe("who gets an answer", () => {
  it("always ignores the bot's own messages, even where bots are allowed", () => {
    expect(decideInbound(dm(SELF, true), contextFor({ allowBots: true, dmPolicy: "open" }))).toEqual({
      action: "ignore",
      reason: "own-message",
    });
  });

  it("ignores other bots by default, and stops a bot-to-bot loop at the hop limit when bots are allowed", () => {
    expect(decideInbound(dm("other-bot", true), contextFor({ dmPolicy: "open" }))).toMatchObject({ reason: "bot" });
    const allowBots = { allowBots: true, botHopLimit: 2, dmPolicy: "open" } as const;
    const brake = new BotLoopBrake();
    const decisions = [1, 2, 3].map(() => {
      const message = inGroup("G", { text: "ping", mentionsBot: true, sender: { id: "other-bot", isBot: true } });
      const botHops = brake.observe(message, SELF);
      return decideInbound(message, contextFor({ ...allowBots, groupPolicy: "open" }, { botHops })).action;
    });
    expect(decisions).toEqual(["handle", "handle", "ignore"]);
    // A person speaking in the chat releases the brake.
    expect(brake.observe(inGroup("G", { text: "hey", sender: { id: "human" } }), SELF)).toBe(0);
    expect(brake.observe(inGroup("G", { text: "x", sender: { id: "other-bot", isBot: true } }), SELF)).toBe(1);
  });

  it("applies each DM policy", () => {
    const stranger = dm("stranger");
    expect(decideInbound(stranger, contextFor())).toEqual({ action: "pair" });
    expect(decideInbound(stranger, contextFor({}, { paired: true }))).toEqual({ action: "handle", trust: "trusted" });
    expect(decideInbound(stranger, contextFor({ dmPolicy: "allowlist" }))).toMatchObject({ reason: "dm-not-allowed" });
    expect(decideInbound(stranger, contextFor({ dmPolicy: "allowlist", allowFrom: ["stranger"] }))).toEqual({
      action: "handle",
      trust: "trusted",
    });
    expect(decideInbound(stranger, contextFor({ dmPolicy: "open" }))).toEqual({ action: "handle", trust: "guest" });
    expect(decideInbound(stranger, contextFor({ dmPolicy: "disabled" }))).toMatchObject({ reason: "dm-disabled" });
    expect(decideInbound(dm("admin"), contextFor({ dmPolicy: "disabled" }))).toEqual({
      action: "handle",
      trust: "owner",
    });
  });

  it("ignores groups outside the allowlist, with a hint saying how to allow them", () => {
    const decision = decideInbound(inGroup("G9", { text: "hi", mentionsBot: true }), contextFor());
    expect(decision).toMatchObject({ action: "ignore", reason: "group-not-allowed" });
    expect(decision.action === "ignore" && decision.hint).toMatch(/"G9" on discord\/main.*groupPolicy: "open"/);
    const hints = new OneTimeHints();
    expect([hints.first("discord/main/G9"), hints.first("discord/main/G9"), hints.first("discord/main/G8")]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("requires a mention in groups by default, and counts a reply to the bot as one", () => {
    const context = contextFor({ groups: { G1: {} } });
    expect(decideInbound(inGroup("G1"), context)).toMatchObject({ reason: "not-mentioned" });
    expect(decideInbound(inGroup("G1", { text: "hi", mentionsBot: true }), context)).toEqual({
      action: "handle",
      trust: "trusted",
    });
    expect(decideInbound(inGroup("G1", { text: "hi", replyToBot: true }), context).action).toBe("handle");
    const always = contextFor({ groups: { G1: { requireMention: false } } });
    expect(decideInbound(inGroup("G1"), always).action).toBe("handle");
  });

  it("gives owner to admins, the group's tier to members, and guest to open groups", () => {
    const context = contextFor({ groupPolicy: "open", groups: { G1: { trust: "guest" }, G2: {} } });
    const mention = (chatId: string, sender: string) =>
      decideInbound(inGroup(chatId, { text: "x", mentionsBot: true, sender: { id: sender } }), context);
    expect(mention("G1", "admin")).toEqual({ action: "handle", trust: "owner" });
    expect(mention("G1", "someone")).toEqual({ action: "handle", trust: "guest" });
    expect(mention("G2", "someone")).toEqual({ action: "handle", trust: "trusted" });
    expect(mention("G3", "someone")).toEqual({ action: "handle", trust: "guest" });
    expect(trustTierOf(dm("friend"), context.policy, true)).toBe("trusted");
  });
});
