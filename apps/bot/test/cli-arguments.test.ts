import { describe, expect, it } from "vitest";
import { parseArgs } from "../src/cli/parse-args.js";
import { runCli } from "../src/cli/run-cli.js";
import { captureIo } from "./support/capture-io.js";

describe("chorus command line", () => {
  it("runs start by default and takes --config for start, doctor and chat", () => {
    expect(parseArgs([])).toEqual({ kind: "start" });
    expect(parseArgs(["start", "--config", "bot.yaml"])).toEqual({ kind: "start", configPath: "bot.yaml" });
    expect(parseArgs(["doctor", "--config=x.json"])).toEqual({ kind: "doctor", configPath: "x.json" });
    expect(parseArgs(["chat"])).toEqual({ kind: "chat" });
    expect(parseArgs(["config", "schema"])).toEqual({ kind: "config-schema" });
    expect(parseArgs(["store", "copy", "--from", "old.db", "--to=postgres://db/x", "--schema", "bot"])).toEqual({
      kind: "store-copy",
      from: "old.db",
      to: "postgres://db/x",
      schema: "bot",
    });
    expect(parseArgs(["store", "copy", "--to"])).toEqual({ kind: "invalid", message: "--to needs a value" });
    expect(parseArgs(["store", "move"]).kind).toBe("invalid");
  });

  it("explains mistakes and exits 2", async () => {
    expect(parseArgs(["strat"])).toEqual({ kind: "invalid", message: 'unknown command "strat"' });
    expect(parseArgs(["start", "--config"])).toEqual({ kind: "invalid", message: "--config needs a file path" });
    const io = captureIo(process.cwd(), {});
    expect(await runCli(["start", "--verbose"], io)).toBe(2);
    expect(io.err()).toContain('unknown option "--verbose" for start');
    expect(io.err()).toContain("Usage: chorus <command>");
  });

  it("start refuses a broken config file with the exact path, before starting anything", async () => {
    const io = captureIo(process.cwd(), {});
    expect(await runCli(["start", "--config", "/nonexistent/chorus.config.yaml"], io)).toBe(1);
    expect(io.err()).toContain("invalid configuration in /nonexistent/chorus.config.yaml:\n  (file): file not found");
  });
});
