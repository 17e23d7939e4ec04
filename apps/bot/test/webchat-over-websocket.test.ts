import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DemoWebchatBot, startDemoWebchatBot } from "./support/demo-webchat-bot.js";
import { WebchatClient } from "./support/webchat-client.js";

let bot: DemoWebchatBot;
const clients: WebchatClient[] = [];

beforeEach(async () => {
  bot = await startDemoWebchatBot("chorus-webchat-");
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await bot.stop();
});

async function connect(): Promise<WebchatClient> {
  const client = await WebchatClient.connect(bot.runtime.webchatUrl ?? "");
  clients.push(client);
  return client;
}

describe("WebChat over a real WebSocket", () => {
  it("streams the demo model's answer into the browser's DM", async () => {
    const browser = await connect();
    browser.send("dm", "hello");
    await browser.until(() => browser.botTexts("dm").some((text) => text.includes("ANTHROPIC_API_KEY")));
    expect(browser.botTexts("dm").join("\n")).toContain("Hello! I'm **Chorus**");
    // Streamed: the reply was edited in place at least once before it was complete.
    expect(browser.frames.some((frame) => frame.type === "edit")).toBe(true);
  });

  it("keeps one DM session per browser and one shared group room", async () => {
    const alice = await connect();
    const bob = await connect();
    alice.send("dm", "help");
    await alice.until(() => alice.botTexts("dm").some((text) => text.includes("Connect a real model")));
    expect(bob.botTexts("dm")).toEqual([]);
    bob.send("group", "hi everyone");
    await alice.until(() => alice.botTexts("group").some((text) => text.includes("Hello!")));
    expect(
      [...alice.texts.values()].some((m) => m.room === "group" && m.role === "user" && m.text === "hi everyone"),
    ).toBe(true);
  });

  it("shows tool calls as they happen, and /agents shows the run tree to the local admin", async () => {
    const browser = await connect();
    const hello = browser.frames.find((frame) => frame.type === "hello");
    expect(hello?.type === "hello" && hello.admin).toBe(true);
    browser.send("dm", "research the workspace");
    await browser.until(() => browser.activities.some(({ activity }) => activity.kind === "subagent_spawned"));
    browser.send("dm", "/agents");
    await browser.until(() => browser.botTexts("dm").some((text) => text.includes("**Fleet**")));
    const fleet = browser.botTexts("dm").find((text) => text.includes("**Fleet**")) ?? "";
    expect(fleet).toMatch(/▪ `[^`]+` assistant · depth 0 · running/);
    expect(fleet).toMatch(/\n└─ `[^`]+` researcher · depth 1/);
    bot.gate.open(); // the researcher was held until now, so the tree above was certainly live
    await browser.until(() => browser.botTexts("dm").some((text) => text.includes("My sub-agent reported back")));
    const kinds = browser.activities.map(({ activity }) => activity.kind);
    expect(kinds).toContain("tool_start");
    expect(kinds).toContain("subagent_completed");
  });

  it("serves the page, /healthz and /readyz on the same server", async () => {
    const base = bot.runtime.webchatUrl ?? "";
    const page = await fetch(base);
    expect(page.status).toBe(200);
    expect(page.headers.get("set-cookie")).toMatch(
      /^chorus_webchat=[A-Za-z0-9_-]{43}; Path=\/;.*HttpOnly; SameSite=Strict/,
    );
    expect(await page.text()).toContain("<title>Chorus · WebChat</title>");
    expect((await fetch(new URL("healthz", base))).status).toBe(200);
    const ready = await fetch(new URL("readyz", base));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", channels: ["webchat/local"] });
  });

  it("refuses a WebSocket opened by another web site", async () => {
    const base = bot.runtime.webchatUrl ?? "";
    const url = new URL("ws", base).toString().replace(/^http/, "ws");
    const { WebSocket } = await import("ws");
    const socket = new WebSocket(url, { headers: { origin: "https://evil.example" } });
    const status = await new Promise<number | undefined>((resolve) => {
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode));
      socket.once("open", () => resolve(undefined));
      socket.once("error", () => resolve(-1));
    });
    socket.terminate();
    expect(status).toBe(403);
  });
});
