import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadBotConfigFile } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import { ConfigReloader } from "../src/runtime/config-reloader.js";
import { silentLogger } from "./support/silent-logger.js";
import { WebchatClient } from "./support/webchat-client.js";

let dir: string;
let file: string;
let runtime: BotRuntime;
let reloader: ConfigReloader;
const clients: WebchatClient[] = [];

function configYaml(options: { accounts: string[]; prompt: string }): string {
  return [
    `dataDir: ${JSON.stringify(dir)}`,
    "store: { kind: memory }",
    "agents:",
    "  - id: assistant",
    "    model: demo",
    `    systemPrompt: ${JSON.stringify(options.prompt)}`,
    "channels:",
    "  webchat:",
    ...options.accounts.map((account) => `    - { accountId: ${account}, port: 0 }`),
    "",
  ].join("\n");
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-reload-"));
  file = join(dir, "chorus.config.yaml");
  await writeFile(file, configYaml({ accounts: ["a"], prompt: "first" }));
  const { config } = await loadBotConfigFile(file, {});
  runtime = new BotRuntime({ config, source: file, logger: silentLogger(), cwd: dir, demoTokenDelayMs: 5 });
  await runtime.start();
  reloader = new ConfigReloader({ file, target: runtime, logger: silentLogger(), env: {}, debounceMs: 20 });
});

afterEach(async () => {
  reloader.close();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await runtime.shutdown();
  await rm(dir, { recursive: true, force: true });
});

async function connect(url: string | undefined): Promise<WebchatClient> {
  const client = await WebchatClient.connect(url ?? "");
  clients.push(client);
  return client;
}

function webchatUrl(key: string): string | undefined {
  const inner = runtime.channels.get(key)?.inner as { url?: string } | undefined;
  return inner?.url;
}

describe("config reload", () => {
  it("refuses a bad file and keeps the old config running", async () => {
    const before = runtime.config;
    await writeFile(file, "agents:\n  - id: assistant\n    model: gpt-99\n");
    const outcome = await reloader.reload();
    expect(outcome.kind).toBe("refused");
    expect(outcome.kind === "refused" && outcome.error).toContain("agents[0].model");
    expect(runtime.config).toBe(before);
    const client = await connect(webchatUrl("webchat/a"));
    client.send("dm", "help");
    await client.until(() => client.botTexts("dm").some((text) => text.includes("Connect a real model")));
  });

  it("starts added channels and stops removed ones without a restart; unchanged channels stay connected", async () => {
    const urlA = webchatUrl("webchat/a");
    const client = await connect(urlA);

    await writeFile(file, configYaml({ accounts: ["a", "b"], prompt: "second" }));
    expect(await reloader.reload()).toEqual({ kind: "applied" });
    expect([...runtime.channels.keys()]).toEqual(["webchat/a", "webchat/b"]);
    expect(runtime.config.agents[0]?.systemPrompt).toBe("second");
    expect(webchatUrl("webchat/a")).toBe(urlA);
    const onB = await connect(webchatUrl("webchat/b"));
    onB.send("dm", "hello");
    await onB.until(() => onB.botTexts("dm").some((text) => text.includes("Hello!")));

    const urlB = webchatUrl("webchat/b") ?? "";
    await writeFile(file, configYaml({ accounts: ["a"], prompt: "third" }));
    expect(await reloader.reload()).toEqual({ kind: "applied" });
    expect([...runtime.channels.keys()]).toEqual(["webchat/a"]);
    await expect(fetch(new URL("healthz", urlB))).rejects.toThrow();

    // The browser on "a" was never disconnected and is still answered.
    client.send("dm", "help");
    await client.until(() => client.botTexts("dm").some((text) => text.includes("Connect a real model")));
  });

  it("applies a change between turns, never in the middle of one", async () => {
    const client = await connect(webchatUrl("webchat/a"));
    client.send("dm", "hello");
    await client.until(() => client.botTexts("dm").length > 0); // the turn is streaming
    await writeFile(file, configYaml({ accounts: ["a"], prompt: "changed" }));
    expect(await reloader.reload()).toEqual({ kind: "applied" });
    // By the time the new config is in force, the turn that was running has finished whole.
    expect(client.botTexts("dm").join("\n")).toContain("chorus.config.yaml`.");
    expect(runtime.config.agents[0]?.systemPrompt).toBe("changed");
  });

  it("reloads when the file changes on disk", async () => {
    reloader.watch();
    await writeFile(file, configYaml({ accounts: ["a"], prompt: "from the watcher" }));
    while (runtime.config.agents[0]?.systemPrompt !== "from the watcher") {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect([...runtime.channels.keys()]).toEqual(["webchat/a"]);
  });
});
