import { describe, expect, it } from "vitest";
import { parseCliArguments } from "../src/cli-flags.js";
import { latencyOptions } from "../src/suites/latency-options.js";

const optionsOf = (...args: string[]) => latencyOptions(parseCliArguments(args, ["latency"]).flags);

describe("the latency suite's command line", () => {
  it("runs every platform, telemetry off then on, with the suite's message counts when no flag is given", () => {
    expect(optionsOf("latency")).toEqual({
      platforms: ["telegram", "discord", "slack"],
      telemetry: ["off", "on"],
      messages: undefined,
      warmupMessages: undefined,
    });
  });

  it("picks platforms and telemetry rows in table order, and takes the message counts", () => {
    const options = optionsOf(
      "latency",
      "--platform",
      "slack,discord",
      "--telemetry=off",
      "--messages",
      "720",
      "--warmup",
      "0",
    );
    expect(options).toEqual({ platforms: ["discord", "slack"], telemetry: ["off"], messages: 720, warmupMessages: 0 });
  });

  it("refuses an unknown platform or telemetry value, and a message count that is not a whole number", () => {
    expect(() => optionsOf("latency", "--platform", "matrix")).toThrow(/--platform matrix: expected one of telegram/);
    expect(() => optionsOf("latency", "--telemetry", "maybe")).toThrow(/expected off or on/);
    expect(() => optionsOf("latency", "--messages", "0")).toThrow(/--messages must be a whole number ≥ 1/);
    expect(() => optionsOf("latency", "--warmup", "1.5")).toThrow(/--warmup must be a whole number ≥ 0/);
  });
});
