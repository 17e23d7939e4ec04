import { startFakeSlack, startNetworkGate, TestCleanup } from "@chorus/testkit";
import { afterEach, expect, it } from "vitest";
import { createSlackChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

it("fails its start when Slack cannot be reached, and leaves no call behind to fail later (an unhandled rejection would end the process)", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on("unhandledRejection", onUnhandled);
  try {
    const f = cleanup.track(await startFakeSlack({ mode: "http" }));
    const gate = cleanup.track(await startNetworkGate(f.apiUrl, { open: false }));
    const channel = createSlackChannel({
      accountId: "sl",
      mode: "http",
      botToken: f.botToken,
      signingSecret: f.signingSecret,
      slackApiUrl: `${gate.url}${new URL(f.apiUrl).pathname}`,
      webApiRetryDelayMs: 50,
    });
    await expect(channel.start(async () => {})).rejects.toMatchObject({ name: "ChannelError" });
    // Longer than the app client's retries (50 ms, then 100 ms): whatever the app started has settled by now.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(unhandled).toEqual([]);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});
