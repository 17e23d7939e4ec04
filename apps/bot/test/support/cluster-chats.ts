import type { DiscordChannel, DiscordUser, FakeDiscord, FakeSlack, FakeTelegram } from "@chorus/testkit";

/** One DM conversation with the bot on a fake platform: what a user sends and what the bot answered, in order. */
export interface ClusterChat {
  readonly label: string;
  /** The session key the gateway gives this DM (for lease lookups). */
  readonly sessionKey: string;
  /** Delivers `text` to the bot; rejects when the platform's delivery failed. */
  send(text: string): Promise<void>;
  /** The bot's messages in this chat, oldest first. */
  answers(): string[];
}

/** A DM on the fake Telegram with user `userId` (account `main`, agent `assistant`). */
export function telegramChat(telegram: FakeTelegram, userId: number): ClusterChat {
  const from = { id: userId, is_bot: false, first_name: `User${userId}` };
  return {
    label: `telegram ${userId}`,
    sessionKey: `assistant:main:telegram:dm:${userId}`,
    send: async (text) => {
      const delivery = await telegram.injectDm({ from, text });
      if (!delivery.ok) throw new Error(`Telegram webhook delivery failed: ${delivery.reason}`);
    },
    answers: () =>
      telegram
        .conversation(userId)
        .filter((message) => message.from?.is_bot === true)
        .map((message) => message.text ?? ""),
  };
}

/** A DM on the fake Slack (HTTP mode) with user `userId` (account `main`, agent `assistant`). */
export function slackChat(slack: FakeSlack, userId: string): ClusterChat {
  const user = { id: userId, name: `user-${userId}`, isBot: false };
  const channel = slack.dmChannel(undefined, user);
  return {
    label: `slack ${userId}`,
    sessionKey: `assistant:main:slack:dm:${userId}`,
    send: async (text) => {
      // As Slack does, an event the app did not ack (in 3 s, or with an error) is sent again with the same event id,
      // up to 3 times; the gateway dedupes it by that id.
      let delivery = await slack.injectDm({ text, user });
      for (let retry = 1; !delivery.ok && retry <= 3; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        delivery = await slack.redeliver(delivery.item.event_id, "http_error");
      }
      if (!delivery.ok) throw new Error(`Slack event delivery failed: ${delivery.reason}`);
    },
    answers: () =>
      slack
        .conversation(channel)
        .filter((message) => message.bot_id !== undefined)
        .map((message) => message.text),
  };
}

/** The bot's messages in a fake Discord channel, oldest first. */
function discordAnswers(discord: FakeDiscord, channelId: string): string[] {
  return discord
    .conversation(channelId)
    .filter((message) => message.author.bot === true)
    .map((message) => message.content);
}

/** Rejects when the fake Discord had no bot session (live or awaiting its RESUME) to dispatch the message to. */
async function delivered(delivery: Promise<{ ok: boolean; reason?: string }>): Promise<void> {
  const outcome = await delivery;
  if (!outcome.ok) throw new Error(`Discord delivery failed: ${outcome.reason}`);
}

/**
 * A guild text channel on the fake Discord (account `main`), where `alice` mentions the bot in every message.
 * The model sees a group message as `[alice]: <text>`; `answers` drops that speaker tag so every chat's echoes read
 * alike (`echo: <text>`).
 */
export function discordChannelChat(discord: FakeDiscord, channel: DiscordChannel): ClusterChat {
  return {
    label: `discord ${channel.name} ${channel.id}`,
    sessionKey: `assistant:main:discord:group:${channel.id}`,
    send: (text) => delivered(discord.injectMention({ content: text, channelId: channel.id })),
    answers: () => discordAnswers(discord, channel.id).map((answer) => answer.replace(/^echo: \[alice\]: /, "echo: ")),
  };
}

/** A DM on the fake Discord (account `main`) with `user` (default `alice`). */
export function discordDmChat(discord: FakeDiscord, user: DiscordUser = discord.user): ClusterChat {
  const channel = discord.dmChannel(undefined, user);
  return {
    label: `discord dm ${user.id}`,
    sessionKey: `assistant:main:discord:dm:${user.id}`,
    send: (text) => delivered(discord.injectDm({ content: text, author: user })),
    answers: () => discordAnswers(discord, channel.id),
  };
}

/** What every chat should show after messages `0 … count - 1`: one echo per message, in order. */
export function expectedEchoes(chat: ClusterChat, count: number): string[] {
  return Array.from({ length: count }, (_, n) => `echo: ${chat.label} m${n}`);
}

/**
 * Messages `from … to - 1` to `chat`, as a person chats: each once the bot answered the one before (resends aside).
 * Contract: polls the fake every 20 ms; rejects, naming the chat and what it shows, when an answer takes longer than
 * `answerTimeoutMs` (default 20 s).
 */
export async function converse(chat: ClusterChat, from: number, to: number, answerTimeoutMs = 20_000): Promise<void> {
  for (let n = from; n < to; n++) {
    await chat.send(`${chat.label} m${n}`);
    const deadline = Date.now() + answerTimeoutMs;
    while (withoutMarkedResends(chat.answers()).length <= n) {
      if (Date.now() > deadline) {
        throw new Error(
          `${chat.label}: no answer to m${n} within ${answerTimeoutMs} ms; it shows ${JSON.stringify(chat.answers())}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Messages `from … to - 1` to `chat` back to back (each sent once the platform took the last, not once it was
 * answered), then waits for every answer. Contract: as `converse`, the timeout counted from the last send.
 */
export async function sendBackToBack(
  chat: ClusterChat,
  from: number,
  to: number,
  answerTimeoutMs = 20_000,
): Promise<void> {
  for (let n = from; n < to; n++) await chat.send(`${chat.label} m${n}`);
  const deadline = Date.now() + answerTimeoutMs;
  while (withoutMarkedResends(chat.answers()).length < to) {
    if (Date.now() > deadline) {
      throw new Error(
        `${chat.label}: not every answer up to m${to - 1} within ${answerTimeoutMs} ms; it shows ${JSON.stringify(chat.answers())}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The outbox's mark on a reply sent again because its first send's outcome was unknown, in italics where the platform
 * has them (Slack `_…_`, Discord `*…*`).
 */
const RESENT = /\n\n[_*]?\(resent after restart\)[_*]?$/;

/**
 * The answers as the user reads them once a resend is recognised: a reply marked "(resent after restart)" right after
 * the same reply is the known copy of a send whose outcome was unknown at a crash (Telegram and Slack have no
 * idempotency key, docs/cluster.md) and is dropped; a marked reply standing alone counts as that answer.
 */
export function withoutMarkedResends(answers: readonly string[]): string[] {
  const read: string[] = [];
  for (const answer of answers) {
    const text = answer.replace(RESENT, "");
    if (text !== answer && read.at(-1) === text) continue;
    read.push(text);
  }
  return read;
}

/** How many of the answers carry the resend mark. */
export function markedResends(answers: readonly string[]): number {
  return answers.filter((answer) => RESENT.test(answer)).length;
}
