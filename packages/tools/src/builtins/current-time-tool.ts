import { defineTool } from "@chorus/core";
import { z } from "zod";
import { describeCurrentTime } from "../time/current-time.js";
import { textOutput } from "../tool-results/text-results.js";
import { runSafely } from "./run-safely.js";

/** current_time: the date and time now. Concurrency-safe. */
export function currentTimeTool(clock: () => Date = () => new Date()) {
  return defineTool({
    name: "current_time",
    description:
      "Get the current date and time, in UTC and optionally in an IANA time zone such as 'America/New_York'.",
    parameters: z.object({ timezone: z.string().optional().describe("IANA time zone; default UTC") }),
    category: "info",
    concurrencySafe: true,
    execute: (args) => runSafely(async () => textOutput(describeCurrentTime(args, clock()))),
  });
}
