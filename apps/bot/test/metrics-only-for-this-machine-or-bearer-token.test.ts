import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBot } from "./support/build-bot.js";
import { httpRequest, startWebchatBotProcess, type WebchatBotProcess } from "./support/webchat-bot-process.js";

// /metrics shows agents' names, token use and cost. It answers this machine (peer 127.0.0.1), after the Host check
// (no DNS rebinding), and a scraper on another machine only with `Authorization: Bearer <metricsToken>`. 127.0.0.2
// stands for another machine.

const ACCESS_TOKEN = "webchat-access-token-0123456789";
const METRICS_TOKEN = "metrics-scrape-token-0123456789";
const dirs: string[] = [];
let local: WebchatBotProcess;
let offLoopback: WebchatBotProcess;
let offLoopbackNoToken: WebchatBotProcess;

async function start(settings: Parameters<typeof startWebchatBotProcess>[1]): Promise<WebchatBotProcess> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-metrics-access-"));
  dirs.push(dir);
  return startWebchatBotProcess(dir, settings);
}

beforeAll(async () => {
  await buildBot();
  [local, offLoopback, offLoopbackNoToken] = await Promise.all([
    start({}),
    start({ host: "127.0.0.2", accessToken: ACCESS_TOKEN, metricsToken: METRICS_TOKEN }),
    start({ host: "127.0.0.2", accessToken: ACCESS_TOKEN }),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([local, offLoopback, offLoopbackNoToken].map((bot) => bot?.bot.kill()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function metricsUrl(bot: WebchatBotProcess): string {
  return new URL("metrics", bot.url).toString();
}

describe("/metrics", () => {
  it("on loopback, a scraper on this machine reads it", async () => {
    const response = await httpRequest(metricsUrl(local), { localAddress: "127.0.0.1" });
    expect(response.status).toBe(200);
    expect(response.body).toContain("target_info");
  }, 30_000);

  it("a request with a foreign Host (a DNS-rebinding page in the owner's browser) is refused", async () => {
    const port = new URL(local.url).port;
    const response = await httpRequest(metricsUrl(local), {
      localAddress: "127.0.0.1",
      headers: { host: `rebind.attacker.example:${port}` },
    });
    expect(response.status).toBe(403);
    expect(response.body).not.toContain("target_info");
    expect(response.body).toContain("does not answer to that Host");
  }, 30_000);

  it("bound off loopback, another machine without the bearer token is refused; with it, it reads", async () => {
    const url = metricsUrl(offLoopback);
    const without = await httpRequest(url, { localAddress: "127.0.0.2" });
    expect(without.status).toBe(401);
    expect(without.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(without.body).toBe("/metrics needs Authorization: Bearer <metricsToken>");
    // The WebChat access token is for people, not scrapers: it does not open /metrics.
    const wrong = await httpRequest(url, {
      localAddress: "127.0.0.2",
      headers: { authorization: `Bearer ${ACCESS_TOKEN}` },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain("target_info");
    const right = await httpRequest(url, {
      localAddress: "127.0.0.2",
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.status).toBe(200);
    expect(right.body).toContain("target_info");
  }, 30_000);

  it("bound off loopback without a metrics token, another machine is refused, saying how to allow a scraper", async () => {
    const response = await httpRequest(metricsUrl(offLoopbackNoToken), { localAddress: "127.0.0.2" });
    expect(response.status).toBe(403);
    expect(response.body).toContain("/metrics is served to this machine only");
    expect(response.body).toContain("channels.webchat[].metricsToken");
    expect(response.body).not.toContain("target_info");
  }, 30_000);
});
