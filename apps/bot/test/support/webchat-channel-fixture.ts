import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InboundMessage } from "@chorus/gateway";
import { CREDENTIAL_COOKIE, newCredential } from "../../src/webchat/browser-identity.js";
import { WebchatChannel, type WebchatChannelOptions } from "../../src/webchat/webchat-channel.js";

/** A WebChat channel started on its own, without a bot: what browsers send lands in `inbound`. */
export interface WebchatFixture {
  readonly channel: WebchatChannel;
  /** The data dir (the key file's directory). */
  readonly dataDir: string;
  /** Where the channel keeps files: `<dataDir>/webchat/uploads`. */
  readonly filesDir: string;
  readonly url: string;
  readonly inbound: InboundMessage[];
  /** The names in the files directory now. */
  files(): Promise<string[]>;
  /** Resolves once `predicate` holds (polled); bounded by the test's timeout. */
  until(predicate: () => boolean): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a channel in a new temporary data dir (or `dataDir`, to start again where another one was). */
export async function startWebchatFixture(
  options: Partial<WebchatChannelOptions> & { dataDir?: string } = {},
): Promise<WebchatFixture> {
  const { dataDir: given, ...rest } = options;
  const dataDir = given ?? (await mkdtemp(join(tmpdir(), "chorus-webchat-files-")));
  const inbound: InboundMessage[] = [];
  const channel = new WebchatChannel({ accountId: "local", port: 0, keyFile: join(dataDir, "webchat.key"), ...rest });
  await channel.start(async (message) => {
    inbound.push(message);
  });
  const filesDir = join(dataDir, "webchat", "uploads");
  return {
    channel,
    dataDir,
    filesDir,
    url: channel.url ?? "",
    inbound,
    files: async () => (await readdir(filesDir)).sort(),
    until: async (predicate) => {
      while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    stop: () => channel.stop(),
  };
}

/** Removes a fixture's data dir (after `stop`). */
export async function removeDataDir(fixture: Pick<WebchatFixture, "dataDir">): Promise<void> {
  await rm(fixture.dataDir, { recursive: true, force: true });
}

/** A new browser: its Cookie header (a fresh credential). */
export function browserCookie(credential = newCredential()): string {
  return `${CREDENTIAL_COOKIE}=${credential}`;
}
