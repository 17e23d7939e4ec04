// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { describe, expect, it } from "vitest";
import { interpolateEnv } from "../src/config/env-interpolation.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("${ENV_VAR} interpolation", () => {
  it("replaces references anywhere in the config, with fallbacks and escapes", () => {
    const result = interpolateEnv(
      {
        channels: { telegram: [{ token: "${TG_TOKEN}" }] },
        providers: { compatible: { local: { baseUrl: "http://${HOST:-127.0.0.1}:11434/v1" } } },
        note: "costs $${PRICE}",
        port: 8787,
      },
      { TG_TOKEN: "42:secret" },
    );
    expect(result).toEqual({
      ok: true,
      value: {
        channels: { telegram: [{ token: "42:secret" }] },
        providers: { compatible: { local: { baseUrl: "http://127.0.0.1:11434/v1" } } },
        note: "costs ${PRICE}",
        port: 8787,
      },
    });
  });

  it("names every missing variable and where it is used", () => {
    const result = interpolateEnv(
      {
        providers: { anthropic: { apiKey: "${ANTHROPIC_KEY}" } },
        channels: { discord: [{ token: "${DISCORD_TOKEN}" }] },
      },
      { DISCORD_TOKEN: "" },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        path: "providers.anthropic.apiKey",
        message: expect.stringContaining("environment variable ANTHROPIC_KEY is not set"),
      },
      {
        path: "channels.discord[0].token",
        message: expect.stringContaining("environment variable DISCORD_TOKEN is not set"),
      },
    ]);
  });

  it("interpolated values are validated like written ones", () => {
    const interpolated = interpolateEnv(
      { agents: [{ id: "a", model: "demo" }], channels: { webchat: [{ host: "${H}" }] } },
      { H: "" },
    );
    expect(interpolated.ok).toBe(false);
    const ok = interpolateEnv({ agents: [{ id: "a", model: "${M}" }] }, { M: "demo" });
    expect(ok.ok && parseBotConfig(ok.value).ok).toBe(true);
  });
});
