import { describe, expect, it } from "vitest";
import { secretsOf } from "../src/config/config-secrets.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { botExtensions } from "../src/runtime/bot-extensions.js";

function parse(media: unknown) {
  return parseBotConfig({
    dataDir: "/tmp/chorus-media-config",
    agents: [
      { id: "assistant", model: "demo" },
      { id: "support", model: "demo" },
    ],
    ...(media === undefined ? {} : { media }),
  });
}

describe("media: in chorus.config.yaml", () => {
  it("is on with its defaults when absent; the bot composes the media extension after the budgets", () => {
    const parsed = parse(undefined);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.config.media.limits.maxFileBytes).toBe(20 * 1024 * 1024);
    expect(parsed.config.media.transcription).toBeUndefined();
    const names = botExtensions(parsed.config, {}, undefined).map((extension) => extension.name);
    expect(names.indexOf("media")).toBeGreaterThan(names.indexOf("autonomy"));
  });

  it("per-agent overrides apply to that agent only, and transcription keys are secrets scrubbed from logs", () => {
    const parsed = parse({
      transcription: { baseUrl: "http://127.0.0.1:9000/v1", apiKey: "whisper-secret-1" },
      agents: { support: { transcription: { baseUrl: "http://127.0.0.1:9001/v1", apiKey: "whisper-secret-2" } } },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(secretsOf(parsed.config)).toEqual(expect.arrayContaining(["whisper-secret-1", "whisper-secret-2"]));
  });

  it("bad values are refused with the exact path", () => {
    const parsed = parse({ limits: { maxFileBytes: -5 }, transcription: { baseUrl: "not a url" } });
    expect(parsed.ok).toBe(false);
    const issues = JSON.stringify(parsed.ok ? [] : parsed.issues);
    expect(issues).toContain("media.limits.maxFileBytes");
    expect(issues).toContain("media.transcription.baseUrl must be a URL");
  });
});
