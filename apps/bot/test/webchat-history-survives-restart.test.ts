import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBot } from "./support/build-bot.js";
import { browserCookies, startWebchatBotProcess, type WebchatBotProcess } from "./support/webchat-bot-process.js";
import { WebchatClient } from "./support/webchat-client.js";

// The page's history comes from the session store, per browser: after `chorus start` is restarted, the same
// browser (same cookie) gets its own conversation back, and nobody else's.

let dir: string;
let running: WebchatBotProcess | undefined;
const clients: WebchatClient[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-webchat-restart-"));
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await running?.bot.kill();
  await rm(dir, { recursive: true, force: true });
});

async function connect(cookie: string): Promise<WebchatClient> {
  const client = await WebchatClient.connect(running?.url ?? "", { cookie, localAddress: "127.0.0.1" });
  clients.push(client);
  return client;
}

/** Sends a line the demo model does not know and waits for its whole answer (which ends naming the config file). */
async function say(client: WebchatClient, room: "dm" | "group", text: string): Promise<string> {
  const before = client.botTexts(room).length;
  client.send(room, text);
  const answer = (): string | undefined => client.botTexts(room).slice(before).at(-1);
  await client.until(() => answer()?.endsWith("`chorus.config.yaml`.") === true);
  return answer() ?? "";
}

describe("WebChat history across a restart", () => {
  it("the same cookie gets its DM conversation and the group back from the store; another browser gets neither DM", async () => {
    running = await startWebchatBotProcess(dir, {});
    const aliceCookie = await browserCookies(running.url);
    const bobCookie = await browserCookies(running.url);
    const alice = await connect(aliceCookie);
    const aliceId = alice.hello.publicId;
    const dmAnswer = await say(alice, "dm", "please remember the word PELICAN-55");
    await say(alice, "group", "a line for everyone: OSPREY-12");
    const bob = await connect(bobCookie);
    await say(bob, "dm", "bob's own words: HERON-9");

    // A reload before the restart: the stored conversation and what this process showed, each line once.
    const reloaded = await connect(aliceCookie);
    const once = reloaded.hello.history.map((message) => message.text);
    expect(once.filter((text) => text === "please remember the word PELICAN-55")).toHaveLength(1);
    expect(once.filter((text) => text === dmAnswer.trim())).toHaveLength(1);

    running.bot.child.kill("SIGTERM");
    expect(await running.bot.exited).toEqual({ code: 0, signal: null });
    await Promise.all(clients.splice(0).map((client) => client.close()));
    // The key the public ids come from is kept, readable by the owner only.
    expect((await stat(join(dir, "data", "webchat.key"))).mode & 0o777).toBe(0o600);

    running = await startWebchatBotProcess(dir, {});
    const aliceAgain = await connect(aliceCookie);
    expect(aliceAgain.hello.publicId).toBe(aliceId);
    const history = aliceAgain.hello.history;
    expect(history).toContainEqual(
      expect.objectContaining({
        room: "dm",
        role: "user",
        text: "please remember the word PELICAN-55",
        senderId: aliceId,
      }),
    );
    expect(history).toContainEqual(expect.objectContaining({ room: "dm", role: "bot", text: dmAnswer.trim() }));
    expect(history).toContainEqual(
      expect.objectContaining({
        room: "group",
        role: "user",
        text: "a line for everyone: OSPREY-12",
        senderName: aliceAgain.hello.name,
      }),
    );
    expect(JSON.stringify(aliceAgain.frames)).not.toContain("HERON-9");
    // In order: the DM question before its answer.
    const texts = history.map((message) => message.text);
    expect(texts.indexOf("please remember the word PELICAN-55")).toBeLessThan(texts.indexOf(dmAnswer.trim()));

    const bobAgain = await connect(bobCookie);
    expect(bobAgain.hello.history).toContainEqual(
      expect.objectContaining({ room: "dm", role: "user", text: "bob's own words: HERON-9" }),
    );
    expect(JSON.stringify(bobAgain.frames)).not.toContain("PELICAN-55");
    expect(JSON.stringify(bobAgain.frames)).toContain("OSPREY-12"); // the group is everyone's
  }, 90_000);
});
