import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createBotLogger } from "../src/logging/bot-logger.js";

function capture(format: "json" | "pretty", secrets: string[] = []) {
  const destination = new PassThrough();
  const lines: string[] = [];
  destination.on("data", (chunk: Buffer) => lines.push(String(chunk)));
  const logger = createBotLogger({ level: "info", format, secrets, destination, isTTY: false });
  return { logger, text: () => lines.join("") };
}

describe("bot logs", () => {
  it("are JSON off a terminal, with the session key and run id on every line of a run", () => {
    const { logger, text } = capture("json");
    const run = logger.child({ sessionKey: "assistant:main:telegram:dm:42", runId: "run_1" });
    run.info("run started");
    run.warn({ tool: "exec" }, "tool failed");
    const lines = text()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatchObject({ sessionKey: "assistant:main:telegram:dm:42", runId: "run_1" });
  });

  it("redact secret fields, known secret values and anything shaped like a key or token", () => {
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const { logger, text } = capture("json", ["my-configured-secret-value"]);
    logger.info({ token: "plain-field-token", headers: { authorization: "Bearer abcdefghijkl" } }, "connecting");
    logger.error({ error: `GET https://api.telegram.org/bot${token}/getMe failed` }, "request failed");
    logger.warn(`key sk-ant-api03-abcdefghijklmnop and xoxb-1234567890-abcdef leaked? my-configured-secret-value`);
    const out = text();
    for (const secret of [
      "plain-field-token",
      "abcdefghijkl",
      token,
      "sk-ant-api03",
      "xoxb-1234567890",
      "my-configured-secret-value",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("[redacted]");
    expect(out).toContain("/getMe failed");
  });

  it("pretty-print for people, still redacted", () => {
    const { logger, text } = capture("pretty", ["hunter2-secret"]);
    logger.info({ sessionKey: "k" }, "hello hunter2-secret");
    expect(text()).toMatch(/INFO.*hello \[redacted\]/);
    expect(text()).toContain("sessionKey");
  });
});
