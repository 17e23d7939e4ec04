import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundMessage, InstanceBroadcast } from "@chorus/gateway";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CREDENTIAL_COOKIE, newCredential } from "../src/webchat/browser-identity.js";
import { WebchatChannel } from "../src/webchat/webchat-channel.js";
import { WebchatClient } from "./support/webchat-client.js";

/** Instances of one cluster in this process: a message published by one reaches the others' subscribers. */
class InProcessCluster {
  readonly #subscribers = new Set<{ instance: number; topic: string; handler: (payload: string) => void }>();

  instance(instance: number): InstanceBroadcast {
    return {
      publish: async (topic, payload) => {
        for (const subscriber of this.#subscribers) {
          if (subscriber.instance !== instance && subscriber.topic === topic) subscriber.handler(payload);
        }
      },
      subscribe: async (topic, handler) => {
        const subscriber = { instance, topic, handler };
        this.#subscribers.add(subscriber);
        return () => this.#subscribers.delete(subscriber);
      },
    };
  }
}

let dir: string;
const channels: WebchatChannel[] = [];
const clients: WebchatClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-webchat-relay-"));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(channels.splice(0).map((channel) => channel.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** Two instances' WebChat channels on one cluster; what browsers send on either arrives in `inbound`. */
async function twoInstances(): Promise<{ a: WebchatChannel; b: WebchatChannel; inbound: InboundMessage[] }> {
  const cluster = new InProcessCluster();
  const inbound: InboundMessage[] = [];
  const start = async (n: number): Promise<WebchatChannel> => {
    const channel = new WebchatChannel({
      accountId: "main",
      port: 0,
      keyFile: join(dir, `webchat-${n}.key`),
      relay: cluster.instance(n),
    });
    channels.push(channel);
    await channel.start(async (message) => {
      inbound.push(message);
    });
    return channel;
  };
  return { a: await start(1), b: await start(2), inbound };
}

async function connect(channel: WebchatChannel, credential = newCredential()): Promise<WebchatClient> {
  const client = await WebchatClient.connect(channel.url ?? "", { cookie: `${CREDENTIAL_COOKIE}=${credential}` });
  clients.push(client);
  return client;
}

describe("WebChat across the instances of a cluster", () => {
  it("shows a reply sent by another instance, and its edits, in the browser's DM on this one", async () => {
    const { a, b, inbound } = await twoInstances();
    const credential = newCredential();
    const browser = await connect(a, credential);
    const other = await connect(a);
    browser.send("dm", "hello from a browser on a");
    await browser.until(() => inbound.length === 1);
    const question = inbound[0] as InboundMessage;

    // Instance b owns the session: it answers, then edits its answer (a streamed reply).
    const sent = await b.send({ chatType: "dm", chatId: question.chatId }, { text: "partial" });
    await b.edit(sent, { text: "the whole answer" });

    await browser.until(() => browser.botTexts("dm").includes("the whole answer"));
    expect(browser.botTexts("dm")).toEqual(["the whole answer"]);
    // Another browser's DM is not shown it.
    expect(other.botTexts("dm")).toEqual([]);
    // A page opened on a later shows it too (a's live messages have it).
    const reloaded = await connect(a, credential);
    expect(reloaded.botTexts("dm")).toEqual(["the whole answer"]);
  });

  it("shares the group room: a browser's message on one instance reaches browsers on the other", async () => {
    const { a, b } = await twoInstances();
    const onA = await connect(a);
    const onB = await connect(b);
    onA.send("group", "hi everyone");
    await onB.until(() => [...onB.texts.values()].some((m) => m.room === "group" && m.text === "hi everyone"));
    await b.send({ chatType: "group", chatId: "group" }, { text: "hello, group" });
    await onA.until(() => onA.botTexts("group").includes("hello, group"));
    // Ids of two instances never collide in one chat.
    const ids = [...onA.texts.keys()];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(2);
  });
});
