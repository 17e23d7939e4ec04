import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../src/cli/run-cli.js";
import { interpolateEnv } from "../src/config/env-interpolation.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { captureIo } from "./support/capture-io.js";

describe("chorus config schema", () => {
  it("prints a JSON Schema generated from the zod schema, covering every section", async () => {
    const io = captureIo(process.cwd(), {});
    expect(await runCli(["config", "schema"], io)).toBe(0);
    const schema = JSON.parse(io.out()) as {
      properties: Record<string, unknown>;
      required?: string[];
      $schema?: string;
    };
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        "providers",
        "models",
        "agents",
        "bindings",
        "channels",
        "admins",
        "policies",
        "store",
        "logging",
      ]),
    );
    expect(schema.required).toEqual(["agents"]);
    const channels = schema.properties.channels as { properties: Record<string, unknown> };
    expect(Object.keys(channels.properties)).toEqual(["discord", "slack", "telegram", "webchat"]);
  });

  it("the annotated example config in the repo is valid", async () => {
    const text = await readFile(new URL("../chorus.config.example.yaml", import.meta.url), "utf8");
    const interpolated = interpolateEnv(parse(text), {
      ANTHROPIC_API_KEY: "sk-ant-example",
      OPENAI_API_KEY: "sk-example",
      DISCORD_BOT_TOKEN: "discord-token",
      SLACK_BOT_TOKEN: "xoxb-example",
      SLACK_APP_TOKEN: "xapp-example",
      TELEGRAM_BOT_TOKEN: "123:example",
      CHORUS_WEBCHAT_TOKEN: "webchat-token-example-0123",
      CHORUS_METRICS_TOKEN: "metrics-token-example-0123",
    });
    expect(interpolated.ok).toBe(true);
    const result = interpolated.ok ? parseBotConfig(interpolated.value) : undefined;
    expect(result?.ok ? [] : result?.issues).toEqual([]);
  });
});
