import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import { fakeModel } from "@chorus/core/testing";
import { TITLE_PROMPT } from "@chorus/extension-titles";
import { type Harness, modelCatalog, startHarness } from "@chorus/gateway-testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { botExtensions } from "../src/runtime/bot-extensions.js";

const OWNER = { id: "owner", name: "Owner" };
const KEY = "main:main:test:dm:owner";

let dir: string;
let h: Harness | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-titles-"));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await rm(dir, { recursive: true, force: true });
});

function parsed(titles: unknown) {
  return parseBotConfig({ agents: [{ id: "main", model: "demo" }], ...(titles === undefined ? {} : { titles }) });
}

describe("titles: { model } in chorus.config.yaml", () => {
  it("an unknown title model is a configuration error naming its path", () => {
    const result = parsed({ model: "gpt-99-ultra" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues).toEqual([
        expect.objectContaining({ path: "titles.model", message: expect.stringContaining("gpt-99-ultra") }),
      ]);
    }
  });

  it("without it the bot composes no titles extension (sessions keep their first line)", () => {
    const result = parsed(undefined);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(botExtensions(result.config, {}, undefined, { dataDir: dir }).map((e) => e.name)).not.toContain("titles");
  });

  it("with it the bot's sessions get the title model's title after the first reply, shown in /agents", async () => {
    const result = parsed({ model: "demo", timeoutMs: 5_000 });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const config = result.config;
    h = await startHarness({
      config: { ...gatewayConfigOf(config), channels: [{ channel: "test", dmPolicy: "open", admins: ["owner"] }] },
      script: (context: StreamContext) => (context.systemPrompt === TITLE_PROMPT ? "Weekend in Porto" : "Sure!"),
      gateway: {
        models: modelCatalog([fakeModel({ id: "demo" })]),
        extensions: botExtensions(config, {}, undefined, { dataDir: dir }),
      },
    });
    await h.send({ text: "what should I see in Porto this weekend?", sender: OWNER });
    expect(h.channel.transcript("dm-owner")).toEqual(["Sure!"]);
    expect((await h.store.getSession(KEY))?.title).toBe("Weekend in Porto");
    await h.send({ text: "/agents sessions main", sender: OWNER });
    expect(h.channel.transcript("dm-owner").at(-1)).toContain("Weekend in Porto");
  });
});
