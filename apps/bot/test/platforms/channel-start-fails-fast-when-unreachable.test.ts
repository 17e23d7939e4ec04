import { createServer, type Server } from "node:net";
import { createDiscordChannel } from "@chorus/channel-discord";
import { createSlackChannel } from "@chorus/channel-slack";
import { createTelegramChannel } from "@chorus/channel-telegram";
import type { Channel } from "@chorus/gateway";
import { ChannelError } from "@chorus/gateway";
import { afterEach, expect, it } from "vitest";

let door: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (door === undefined ? resolve() : door.close(() => resolve())));
  door = undefined;
});

/** A local address that cuts every connection at once, as an unreachable platform fails; counts the tries. */
async function unreachable(): Promise<{ url: string; tries: () => number }> {
  let tries = 0;
  const server = createServer((socket) => {
    tries++;
    socket.destroy();
  });
  door = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, tries: () => tries };
}

const platforms: [string, (url: string) => Channel][] = [
  // grammy's own init (and auto-retry) would retry this without end, backing off up to an hour.
  ["Telegram", (url) => createTelegramChannel({ accountId: "tg", token: "123:abc", apiRoot: url })],
  // The WebClient's default retries would take about 30 minutes.
  [
    "Slack (Socket Mode)",
    (url) =>
      createSlackChannel({
        accountId: "sl",
        mode: "socket",
        botToken: "xoxb-1",
        appToken: "xapp-1",
        slackApiUrl: `${url}/api/`,
      }),
  ],
  ["Discord", (url) => createDiscordChannel({ accountId: "dc", token: "x.y.z", restApi: `${url}/api` })],
];

it.each(platforms)(
  "%s: start rejects, retryably, instead of waiting out a platform it cannot reach",
  async (_name, create) => {
    const door = await unreachable();
    const channel = create(door.url);
    const started = performance.now();
    const error = await channel
      .start(() => {})
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(ChannelError);
    expect((error as ChannelError).retryable).toBe(true);
    expect(door.tries()).toBeGreaterThan(0);
    // Bounded by the test's own timeout too; this says "at once" in numbers a person would notice.
    expect(performance.now() - started).toBeLessThan(5_000);
    // Nothing is left running: a later start begins afresh.
    await expect(channel.stop()).resolves.toBeUndefined();
  },
);
