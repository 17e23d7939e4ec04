import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteMemoryStore } from "@chorus/memory";
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
  dir = await mkdtemp(join(tmpdir(), "chorus-skill-router-bot-"));
  openai = await startFakeOpenAI();
});
afterEach(async () => {
  await client?.close();
  await runtime?.shutdown();
  await openai.close();
  await rm(dir, { recursive: true, force: true });
});

describe("skillRouter: true in chorus.config.yaml", () => {
  it("puts one hint line in the model's system prompt and credits the arm in the session database (memory off)", async () => {
    await mkdir(join(dir, "skills", "release"), { recursive: true });
    await writeFile(
      join(dir, "skills", "release", "SKILL.md"),
      "---\nname: release\ndescription: Cut a release\n---\nTag it, then announce it.\n",
    );
    const parsed = parseBotConfig({
      dataDir: dir,
      providers: { openai: { apiKey: "sk-test-000000", baseUrl: openai.url } },
      agents: [{ id: "assistant", model: "openai/gpt-4.1", skillRouter: true }],
      channels: { webchat: [{ port: 0 }] },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    runtime = new BotRuntime({ config: parsed.config, source: "test", logger: silentLogger(), cwd: dir });
    await runtime.start();
    client = await WebchatClient.connect(runtime.webchatUrl ?? "");
    const chat = client;

    openai.enqueue([{ type: "text", text: "Tagged." }]);
    chat.send("dm", "tag v2 please");
    await chat.until(() => chat.botTexts("dm").includes("Tagged."));
    const request = openai.requests.find((r) => r.path === "/v1/chat/completions");
    const hints = JSON.stringify(request?.body.messages).match(/A skill that may help: [^"\\]*/g) ?? [];
    expect(hints).toEqual(["A skill that may help: release — Cut a release (load it with load_skill if useful)"]);

    await client.close();
    client = undefined;
    await runtime.shutdown();
    runtime = undefined;
    const arms = new SqliteMemoryStore({ path: join(dir, "chorus.db") });
    expect(await arms.skillArms("assistant")).toEqual([{ skill: "release", alpha: 2, beta: 1 }]);
    await arms.close();
  });
});
