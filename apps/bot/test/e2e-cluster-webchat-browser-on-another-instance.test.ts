import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionShard } from "@chorus/store-postgres";
import { createScratchDatabase, queryOnce, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { freePort, startFakeOpenAI } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CREDENTIAL_COOKIE, newCredential, publicIdOf } from "../src/webchat/browser-identity.js";
import { loadOrCreateWebchatKey, WEBCHAT_KEY_FILE } from "../src/webchat/webchat-key.js";
import type { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { echoEveryMessage, startClusterInstance } from "./support/cluster-instances.js";
import { WebchatClient } from "./support/webchat-client.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let database: ScratchDatabase;
let openai: FakeOpenAI;
const bots: BotProcess[] = [];
const clients: WebchatClient[] = [];

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-e2e-cluster-webchat-"));
  database = await createScratchDatabase();
  openai = await startFakeOpenAI();
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const bot of bots) await bot.kill();
  await openai?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function start(name: string, port: number): Promise<BotProcess> {
  const bot = await startClusterInstance({
    dir,
    name,
    openai,
    databaseUrl: database.url,
    channels: ["  webchat:", "    - accountId: main", `      port: ${port}`],
  });
  bots.push(bot);
  return bot;
}

/** The shards the instance named `name` holds now. */
async function shardsOf(name: string): Promise<number[]> {
  const { rows } = await queryOnce(database.url, "SELECT shard FROM shard_leases WHERE owner LIKE $1", [`${name}#%`]);
  return rows.map((row) => Number(row.shard));
}

describe("WebChat on two chorus start instances in cluster mode", () => {
  it("brings the reply of the instance owning the session to the browser connected to the other", async () => {
    echoEveryMessage(openai, 20);
    const ports = [await freePort(), await freePort()];
    const a = await start("a", ports[0] as number);
    const b = await start("b", ports[1] as number);
    await vi.waitFor(async () => expect(await shardsOf("b")).toHaveLength(32), { timeout: 20_000, interval: 100 });

    // A browser whose DM session falls in one of b's shards, connected to a. The instances use one key, the first
    // one's (a's, stored in the database), so the browser is the same person on both.
    const key = await loadOrCreateWebchatKey(join(dir, "a", WEBCHAT_KEY_FILE));
    expect(await loadOrCreateWebchatKey(join(dir, "b", WEBCHAT_KEY_FILE))).not.toEqual(key);
    const owned = new Set(await shardsOf("b"));
    let credential = newCredential();
    while (!owned.has(sessionShard(`assistant:main:webchat:dm:${publicIdOf(key, credential)}`))) {
      credential = newCredential();
    }
    const browser = await WebchatClient.connect(`http://127.0.0.1:${ports[0]}/`, {
      cookie: `${CREDENTIAL_COOKIE}=${credential}`,
    });
    clients.push(browser);

    expect(await browser.ask("dm", "hello from a browser on a")).toBe("echo: hello from a browser on a");
    expect(await browser.ask("dm", "and once more")).toBe("echo: and once more");

    // b ran both turns (a handed the messages off) and sent the replies: its WebChat has no browser, a showed them.
    // The browser sees a reply as soon as it is sent; b marks it sent in the database right after.
    await vi.waitFor(
      async () => {
        const { rows } = await queryOnce(
          database.url,
          "SELECT count(*)::int AS n FROM outbox WHERE session_key = $1 AND status = 'sent' AND claimed_by LIKE 'b#%'",
          [`assistant:main:webchat:dm:${publicIdOf(key, credential)}`],
        );
        expect(rows[0]?.n).toBe(2);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(browser.botTexts("dm")).toEqual(["echo: hello from a browser on a", "echo: and once more"]);
    // The same browser opening the page on b is the same person there: its conversation (the store's history), and
    // b answers it directly.
    const onB = await WebchatClient.connect(`http://127.0.0.1:${ports[1]}/`, {
      cookie: `${CREDENTIAL_COOKIE}=${credential}`,
    });
    clients.push(onB);
    expect(onB.hello.publicId).toBe(browser.hello.publicId);
    expect(onB.botTexts("dm")).toEqual(["echo: hello from a browser on a", "echo: and once more"]);
    expect(await onB.ask("dm", "now from b")).toBe("echo: now from b");
    // Its tab still open on a shows that too (relayed).
    await browser.until(() => browser.botTexts("dm").includes("echo: now from b"));
    for (const bot of [a, b]) {
      bot.child.kill("SIGTERM");
      expect(await bot.exited).toEqual({ code: 0, signal: null });
    }
  }, 180_000);
});
