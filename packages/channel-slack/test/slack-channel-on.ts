import type { FakeSlack } from "@chorus/testkit";
import { createSlackChannel, type SlackChannelOptions } from "../src/index.js";

/** The app's options that are not about reaching the fake; `accountId` may be overridden (default "sl"). */
export type SlackTestOptions = Omit<
  SlackChannelOptions,
  "accountId" | "mode" | "botToken" | "appToken" | "signingSecret" | "slackApiUrl"
> & { accountId?: string };

/**
 * A Slack channel (account "sl" unless given) pointed at the fake in the fake's own mode: Socket Mode with its app
 * token, or HTTP with its signing secret (the test then tells the fake the channel's `eventsUrl` once the channel
 * listens).
 */
export function slackChannelOn(f: FakeSlack, options: SlackTestOptions = {}) {
  const base = { accountId: "sl", botToken: f.botToken, slackApiUrl: f.apiUrl, ...options };
  return f.mode === "socket"
    ? createSlackChannel({ ...base, mode: "socket", appToken: f.appToken })
    : createSlackChannel({ ...base, mode: "http", signingSecret: f.signingSecret });
}
