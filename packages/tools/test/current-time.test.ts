import { describe, expect, it } from "vitest";
import { currentTimeTool } from "../src/builtins/current-time-tool.js";
import { runTool } from "./support/temp-workspace.js";

describe("current_time", () => {
  const tool = currentTimeTool(() => new Date("2026-03-01T12:30:00Z"));

  it("states UTC and the requested zone", async () => {
    const out = await runTool([tool], "current_time", { timezone: "Asia/Tokyo" });
    expect(out.text).toContain("UTC: 2026-03-01T12:30:00.000Z");
    expect(out.text).toMatch(/Asia\/Tokyo: Sunday.*1 March 2026.*21:30:00/);
  });

  it("rejects an unknown zone with a clear error", async () => {
    const out = await runTool([tool], "current_time", { timezone: "Mars/Olympus" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/Unknown time zone "Mars\/Olympus"/);
  });
});
