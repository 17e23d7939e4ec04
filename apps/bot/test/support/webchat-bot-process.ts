import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { BotProcess } from "./bot-process.js";
import { buildBot } from "./build-bot.js";
import { WebchatClient } from "./webchat-client.js";

/** The WebChat account settings a test bot runs with. */
export interface WebchatSettings {
  readonly host?: string;
  readonly localAdmin?: boolean;
  readonly accessToken?: string;
  readonly allowedHosts?: readonly string[];
  /** The bearer token scrapers elsewhere send for /metrics. */
  readonly metricsToken?: string;
  /** Public ids listed under `admins.webchat`. */
  readonly admins?: readonly string[];
}

/** A `chorus start` child process serving WebChat (demo model, SQLite store under `<dir>/data`). */
export interface WebchatBotProcess {
  readonly bot: BotProcess;
  /** The page, e.g. http://127.0.0.1:41234/ */
  readonly url: string;
}

/** Writes `<dir>/chorus.config.yaml` for the demo model and one WebChat account on port `port` (0: any free one). */
export async function writeWebchatConfig(dir: string, settings: WebchatSettings, port = 0): Promise<string> {
  const file = join(dir, "chorus.config.yaml");
  const account = [
    "    - accountId: local",
    `      host: ${JSON.stringify(settings.host ?? "127.0.0.1")}`,
    `      port: ${port}`,
    ...(settings.localAdmin === undefined ? [] : [`      localAdmin: ${settings.localAdmin}`]),
    ...(settings.accessToken === undefined ? [] : [`      accessToken: ${JSON.stringify(settings.accessToken)}`]),
    ...(settings.allowedHosts === undefined ? [] : [`      allowedHosts: ${JSON.stringify(settings.allowedHosts)}`]),
    ...(settings.metricsToken === undefined ? [] : [`      metricsToken: ${JSON.stringify(settings.metricsToken)}`]),
  ];
  await writeFile(
    file,
    [
      `dataDir: ${JSON.stringify(join(dir, "data"))}`,
      "agents:",
      "  - id: assistant",
      "    model: demo",
      "channels:",
      "  webchat:",
      ...account,
      ...(settings.admins === undefined ? [] : ["admins:", `  webchat: ${JSON.stringify(settings.admins)}`]),
      "logging:",
      "  format: json",
      "",
    ].join("\n"),
  );
  return file;
}

/** Starts `chorus start` on the config `writeWebchatConfig` wrote, and waits for the page's URL in the banner. */
export async function startWebchatBotProcess(dir: string, settings: WebchatSettings): Promise<WebchatBotProcess> {
  const config = await writeWebchatConfig(dir, settings);
  const bot = new BotProcess(["start", "--config", config], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir },
  });
  const line = await bot.waitForLine(/webchat\/local\s+http:\/\/\S+/);
  const url = /http:\/\/\S+/.exec(line)?.[0] ?? "";
  return { bot, url };
}

/** An HTTP response as a test reads it. */
export interface PlainResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP request with full control over Host, cookies and the source address (fetch allows neither). */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.once("error", reject);
    req.end(options.body);
  });
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieHeaderOf(setCookie: string | string[] | undefined): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

/** Loads the page as a browser at `localAddress` would, and returns the cookies it was given. */
export async function browserCookies(url: string, localAddress = "127.0.0.1"): Promise<string> {
  const page = await httpRequest(url, { localAddress });
  if (page.status !== 200) throw new Error(`the page answered ${page.status}: ${page.body}`);
  return cookieHeaderOf(page.headers["set-cookie"]);
}

/** One WebChat bot process shared by a test file, and the clients it connected (closed after the file). */
export interface WebchatBotSuite {
  /** The folder holding the config and the data dir. */
  dir(): string;
  running(): WebchatBotProcess;
  connect(options: Parameters<typeof WebchatClient.connect>[1]): Promise<WebchatClient>;
  /** Every client `connect` opened so far. */
  clients(): readonly WebchatClient[];
}

/**
 * Starts one `chorus start` serving WebChat before the file's tests and stops it (and every client) after them.
 * Contract: call at the top level of a test file.
 */
export function webchatBotSuite(prefix: string, settings: WebchatSettings): WebchatBotSuite {
  let dir = "";
  let running: WebchatBotProcess | undefined;
  const clients: WebchatClient[] = [];
  beforeAll(async () => {
    await buildBot();
    dir = await mkdtemp(join(tmpdir(), prefix));
    running = await startWebchatBotProcess(dir, settings);
  }, 300_000);
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await running?.bot.kill();
    await rm(dir, { recursive: true, force: true });
  });
  const suite: WebchatBotSuite = {
    dir: () => dir,
    running: () => {
      if (running === undefined) throw new Error("the WebChat bot is not running");
      return running;
    },
    connect: async (options) => {
      const client = await WebchatClient.connect(suite.running().url, options);
      clients.push(client);
      return client;
    },
    clients: () => clients,
  };
  return suite;
}
