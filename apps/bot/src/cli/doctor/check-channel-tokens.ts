import type { BotConfig } from "../../config/bot-config-schema.js";
import { scrubSecrets } from "../../logging/secret-scrubber.js";
import { CHECK_TIMEOUT_MS, type DoctorCheck } from "./doctor-check.js";

/**
 * Checks every Discord, Slack and Telegram token with the platform's own "who am I" call (users/@me, auth.test,
 * getMe) at the configured API base.
 * Contract: never rejects; secrets never appear in a detail.
 */
export async function checkChannelTokens(config: BotConfig): Promise<DoctorCheck[]> {
  const checks: Promise<DoctorCheck>[] = [];
  for (const account of config.channels.discord) {
    const base = (account.restApi ?? "https://discord.com/api").replace(/\/+$/, "");
    checks.push(
      probe(`discord/${account.accountId}`, [account.token], async () => {
        const response = await fetch(`${base}/v10/users/@me`, {
          headers: { authorization: `Bot ${account.token}` },
          signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        if (response.status === 401)
          return fail("token rejected (401 Unauthorized): copy the bot token again from the Developer Portal");
        if (!response.ok) return fail(`users/@me answered ${response.status}`);
        const me = (await response.json()) as { username?: string; id?: string };
        return pass(`token accepted (bot ${me.username ?? "?"}, id ${me.id ?? "?"})`);
      }),
    );
  }
  for (const account of config.channels.slack) {
    const base = account.slackApiUrl ?? "https://slack.com/api/";
    checks.push(
      probe(`slack/${account.accountId}`, [account.botToken, account.appToken, account.signingSecret], async () => {
        const response = await fetch(new URL("auth.test", base.endsWith("/") ? base : `${base}/`), {
          method: "POST",
          headers: { authorization: `Bearer ${account.botToken}`, "content-type": "application/x-www-form-urlencoded" },
          signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        const body = (await response.json().catch(() => ({}))) as {
          ok?: boolean;
          error?: string;
          user?: string;
          team?: string;
        };
        if (!body.ok) return fail(`bot token rejected (${body.error ?? `HTTP ${response.status}`})`);
        const who = `${body.user ?? "?"} in ${body.team ?? "?"}`;
        if (account.appToken === undefined) return pass(`bot token accepted (${who}; HTTP mode)`);
        // Socket Mode: the app-level token must be able to open a connection (a URL is issued, nothing connects).
        const socket = await fetch(new URL("apps.connections.open", base.endsWith("/") ? base : `${base}/`), {
          method: "POST",
          headers: { authorization: `Bearer ${account.appToken}`, "content-type": "application/x-www-form-urlencoded" },
          signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        const opened = (await socket.json().catch(() => ({}))) as { ok?: boolean; error?: string };
        if (!opened.ok)
          return fail(`bot token accepted, app token rejected (${opened.error ?? `HTTP ${socket.status}`})`);
        return pass(`bot and app tokens accepted (${who}; Socket Mode)`);
      }),
    );
  }
  for (const account of config.channels.telegram) {
    const base = (account.apiRoot ?? "https://api.telegram.org").replace(/\/+$/, "");
    checks.push(
      probe(`telegram/${account.accountId}`, [account.token], async () => {
        const response = await fetch(`${base}/bot${account.token}/getMe`, {
          signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        const body = (await response.json().catch(() => ({}))) as {
          ok?: boolean;
          description?: string;
          result?: { username?: string };
        };
        if (response.status === 401 || response.status === 404)
          return fail("token rejected (401 Unauthorized): ask @BotFather for the token again");
        if (!body.ok) return fail(`getMe failed (${body.description ?? `HTTP ${response.status}`})`);
        return pass(`token accepted (bot @${body.result?.username ?? "?"})`);
      }),
    );
  }
  return Promise.all(checks);
}

type Verdict = { ok: boolean; detail: string };
const pass = (detail: string): Verdict => ({ ok: true, detail });
const fail = (detail: string): Verdict => ({ ok: false, detail });

async function probe(name: string, secrets: (string | undefined)[], run: () => Promise<Verdict>): Promise<DoctorCheck> {
  const known = secrets.filter((secret): secret is string => secret !== undefined);
  try {
    const verdict = await run();
    return { name, ok: verdict.ok, detail: scrubSecrets(verdict.detail, known) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    const message = error instanceof Error ? `${error.message}${cause}` : String(error);
    return { name, ok: false, detail: scrubSecrets(`cannot reach the API (${message})`, known) };
  }
}
