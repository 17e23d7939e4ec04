import { describe, expect, it } from "vitest";
import { parseCliArguments } from "../src/cli-flags.js";
import { DEFAULT_ROUNDS, sideBySideOptions } from "../src/side-by-side/side-by-side-options.js";

const SUITES = ["core", "platforms", "gateway", "store"];
const optionsOf = (...args: string[]) => sideBySideOptions(parseCliArguments(args, SUITES).flags);

describe("the bench command line", () => {
  it("splits suite names from flags, with values after a space or an equals sign", () => {
    const parsed = parseCliArguments(["platforms", "--rounds", "3", "--system=chorus", "--side-by-side"], SUITES);
    expect(parsed.suites).toEqual(["platforms"]);
    expect(Object.fromEntries(parsed.flags)).toEqual({ rounds: ["3"], system: ["chorus"], "side-by-side": [""] });
  });

  it("runs everything, 7 rounds, both platforms, after the in-process tables when no side-by-side flag is given", () => {
    const options = optionsOf("platforms");
    expect(options.only).toBe(false);
    expect(options.rounds).toBe(DEFAULT_ROUNDS);
    expect(options.platforms).toEqual(["telegram", "slack"]);
    expect(options.chatSdkConcurrency).toBe("concurrent");
    expect(options.systems.map((s) => s.id)).toEqual([
      "chat-sdk-echo-memory",
      "chat-sdk-echo-redis",
      "chat-sdk-fetch-memory",
      "chat-sdk-ai-memory",
      "chat-sdk-ai-redis",
      "chorus",
    ]);
  });

  it("picks platforms and systems, comma-separated or repeated, and then runs only the side-by-side part", () => {
    const options = optionsOf(
      "platforms",
      "--platform",
      "slack",
      "--system",
      "chorus,chat-sdk-ai-redis",
      "--system",
      "chat-sdk-fetch-memory",
      "--rounds",
      "2",
    );
    expect(options.only).toBe(true);
    expect(options.rounds).toBe(2);
    expect(options.platforms).toEqual(["slack"]);
    expect(options.systems.map((s) => s.id)).toEqual(["chat-sdk-fetch-memory", "chat-sdk-ai-redis", "chorus"]);
  });

  it("profiles Chorus by default, or the named system, for one round of that system alone", () => {
    expect(optionsOf("platforms", "--profile").profile?.id).toBe("chorus");
    const named = optionsOf("--profile", "chat-sdk-echo-redis", "platforms", "--rounds", "5");
    expect([named.profile?.id, named.rounds, named.systems.map((s) => s.id)]).toEqual([
      "chat-sdk-echo-redis",
      1,
      ["chat-sdk-echo-redis"],
    ]);
  });

  it("adds another checkout's chorus start as the baseline system, and may pick it by id", () => {
    const options = optionsOf("platforms", "--chorus-baseline", "/tmp/base", "--system", "chorus,chorus-baseline");
    expect(options.only).toBe(true);
    expect(options.systems.map((s) => [s.id, s.label])).toEqual([
      ["chorus", "Chorus (SQLite)"],
      ["chorus-baseline", "Chorus baseline (SQLite)"],
    ]);
    expect(optionsOf("--chorus-baseline", "/tmp/base").systems.map((s) => s.id)).toContain("chorus-baseline");
    expect(() => optionsOf("--system", "chorus-baseline")).toThrow(/unknown system chorus-baseline/);
    expect(() => optionsOf("--chorus-baseline")).toThrow(/needs the path of another checkout/);
  });

  it("refuses unknown systems and platforms and bad round counts, naming what is allowed", () => {
    expect(() => optionsOf("--system", "botkit")).toThrow(
      /unknown system botkit: expected one of chat-sdk-echo-memory/,
    );
    expect(() => optionsOf("--platform", "discord")).toThrow(/--platform discord: expected one of telegram, slack/);
    expect(() => optionsOf("--rounds", "0")).toThrow(/--rounds must be a whole number/);
    expect(() => optionsOf("--chat-sdk-concurrency", "burst")).toThrow(/expected one of concurrent, queue, drop/);
  });
});
