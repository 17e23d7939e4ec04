import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import { silentLogger } from "./support/silent-logger.js";
import { WebchatClient } from "./support/webchat-client.js";

type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

let dir: string;
let openai: FakeOpenAI;
let runtime: BotRuntime | undefined;
let client: WebchatClient | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-skills-"));
  openai = await startFakeOpenAI();
});
afterEach(async () => {
  await client?.close();
  await runtime?.shutdown();
  await openai.close();
  await rm(dir, { recursive: true, force: true });
});

describe("skills in the bot's data dir", () => {
  it("are listed by /skills, described to the model, and /<skill-name> reaches the agent", async () => {
    await mkdir(join(dir, "skills", "release"), { recursive: true });
    await writeFile(
      join(dir, "skills", "release", "SKILL.md"),
      "---\nname: release\ndescription: Cut a release\n---\nTag it, then announce it.\n",
    );
    const parsed = parseBotConfig({
      dataDir: dir,
      providers: { openai: { apiKey: "sk-test-000000", baseUrl: openai.url } },
      agents: [{ id: "assistant", model: "openai/gpt-4.1" }],
      channels: { webchat: [{ port: 0 }] },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    runtime = new BotRuntime({ config: parsed.config, source: "test", logger: silentLogger(), cwd: dir });
    await runtime.start();
    client = await WebchatClient.connect(runtime.webchatUrl ?? "");
    const chat = client;

    chat.send("dm", "/skills");
    await chat.until(() => chat.botTexts("dm").some((text) => text.includes("Cut a release")));
    expect(openai.requests).toHaveLength(0);

    openai.enqueue([{ type: "text", text: "Releasing v2." }]);
    chat.send("dm", "/release v2");
    await chat.until(() => chat.botTexts("dm").includes("Releasing v2."));
    const request = openai.requests.find((r) => r.path === "/v1/chat/completions");
    const messages = JSON.stringify(request?.body.messages);
    expect(messages).toContain("release: Cut a release");
    expect(messages).toContain("/release v2");
    expect(JSON.stringify(request?.body.tools)).toContain("load_skill");
  });
});
