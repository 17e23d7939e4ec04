import { once } from "node:events";
import { Events, type TextChannel } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("fake Discord faults", () => {
  it("a dropped connection RESUMEs and the events sent meanwhile are replayed", async () => {
    const fake = cleanup.track(await startFakeDiscord({ heartbeatIntervalMs: 1_000 }));
    const c = cleanup.track(await connectDiscordClient(fake));
    const contents: string[] = [];
    c.on(Events.MessageCreate, (message) => {
      contents.push(message.content);
    });
    await fake.injectChannelMessage({ content: "before the drop" });
    await expect.poll(() => contents).toEqual(["before the drop"]);

    const resumed = once(c, Events.ShardResume);
    expect(fake.dropConnection()).toBe(true);
    const missed = await fake.injectChannelMessage({ content: "while disconnected" });
    expect(missed.ok).toBe(true);
    const [, replayedEvents] = await resumed;

    expect(replayedEvents).toBe(1);
    await expect.poll(() => contents).toEqual(["before the drop", "while disconnected"]);
    const resume = fake.callsTo("gateway.resume")[0];
    expect(resume?.body).toMatchObject({ seq: 3 });
    expect(fake.callsTo("gateway.identify")).toHaveLength(1);
  });

  it("can replay already-delivered events on RESUME, so duplicates reach the client", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    // discord.js drops a MESSAGE_CREATE whose id it has cached, so watch the raw dispatches.
    const ids: string[] = [];
    c.on(Events.Raw, (packet: { t?: string; d?: { id?: string } }) => {
      if (packet.t === "MESSAGE_CREATE") ids.push(packet.d?.id ?? "");
    });
    const first = await fake.injectChannelMessage({ content: "once" });
    await expect.poll(() => ids.length).toBe(1);

    const resumed = once(c, Events.ShardResume);
    fake.dropConnection({ replayDelivered: 1 });
    await resumed;

    await expect.poll(() => ids).toEqual([first.item.id, first.item.id]);
  });

  it("a lost session answers RESUME with INVALID_SESSION and the client identifies again", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    const contents: string[] = [];
    c.on(Events.MessageCreate, (message) => {
      contents.push(message.content);
    });

    expect(fake.dropConnection({ resumable: false })).toBe(true);
    await fake.waitForCall("gateway.identify", 2);
    await fake.waitForSession();
    await fake.injectChannelMessage({ content: "on the new session" });

    await expect.poll(() => contents).toEqual(["on the new session"]);
    expect(fake.callsTo("gateway.resume")).toHaveLength(1);
  });

  it("op 7 RECONNECT makes the client resume on the same session", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    const resumed = once(c, Events.ShardResume);
    expect(fake.requestReconnect()).toBe(true);
    await resumed;
    await fake.waitForSession();
    const contents: string[] = [];
    c.on(Events.MessageCreate, (message) => {
      contents.push(message.content);
    });
    await fake.injectChannelMessage({ content: "after reconnect" });
    await expect.poll(() => contents).toEqual(["after reconnect"]);
    expect(fake.callsTo("gateway.identify")).toHaveLength(1);
  });

  it("a 429 on send is waited out by @discordjs/rest and the message lands once", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    fake.failNext({ method: "createMessage", status: 429, retryAfterSeconds: 0.2 });
    const general = c.channels.cache.get(fake.guild.general.id) as TextChannel;

    const sent = await general.send("through the rate limit");

    expect(fake.callsTo("createMessage").map((call) => call.status)).toEqual([429, 200]);
    const stored = fake.conversation(fake.guild.general.id).filter((m) => m.content === "through the rate limit");
    expect(stored.map((m) => m.id)).toEqual([sent.id]);
  });

  it("a 5xx is retried by @discordjs/rest; Discord's validation errors are not", async () => {
    const fake = cleanup.track(await startFakeDiscord());
    const c = cleanup.track(await connectDiscordClient(fake));
    fake.failNext({ method: "createMessage", status: 502 });
    const general = c.channels.cache.get(fake.guild.general.id) as TextChannel;
    await general.send("after a bad gateway");
    expect(fake.callsTo("createMessage").map((call) => call.status)).toEqual([502, 200]);

    await expect(general.send("x".repeat(2001))).rejects.toMatchObject({ code: 50035, status: 400 });
  });
});
