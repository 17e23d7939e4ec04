// Child process for the crash tests: a Gateway on a SQLite file with this package's Telegram channel against a fake
// Bot API, and a scripted model that echoes (or asks to deploy). The parent kills it (SIGKILL) at chosen moments.
// Run: node --import ./resolve-ts-specifiers.mjs telegram-gateway-child.ts '<json ChildOptions>'
//
// stdout, one JSON line each: ready | inbound {eventId,text} | send-attempt {chatId,text} | sent {…} | marked-sent |
//   marked-failed. A pipe write is synchronous on Linux, so the parent hears of each step before the next.
import type { StreamContext } from "@chorus/core";
import { fakeModel, type ScriptedTurn, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, type OutboundMessage, type SendTarget, type SentMessage, SqliteSessionStore } from "@chorus/gateway";
import { deployProbe } from "@chorus/gateway/testing";
import { createApprovalPolicy } from "@chorus/tools";
import { createTelegramChannel } from "../../src/index.js";

/** What the parent asks of this child. */
export interface ChildOptions {
  dbPath: string;
  /** The fake Bot API and who administers the bot. */
  telegram: { apiRoot: string; token: string; admins: string[] };
  /** "hang-before": a send never reaches Telegram (the reply is in flight when the process dies). */
  send?: "normal" | "hang-before";
  /** Give the agent a `deploy` tool that needs approval ("deploy" asks for it). */
  approvals?: boolean;
}

const options = JSON.parse(process.argv[2] ?? "{}") as ChildOptions;
const print = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as { text?: string }[]).map((block) => block.text ?? "").join("");
}

/** The model: "deploy" calls deploy (approval needed); anything else is echoed. */
function turnFor(context: StreamContext): ScriptedTurn {
  const last = context.messages.at(-1);
  if (last?.role === "toolResult") return `after the tool: ${textOf(last.content)}`;
  const text = textOf(context.messages.filter((m) => m.role === "user").at(-1)?.content);
  return text === "deploy" ? { toolCalls: [{ name: "deploy", args: { target: "prod" } }] } : `echo: ${text}`;
}

const store = SqliteSessionStore.open({ path: options.dbPath });
// Tell the parent once an outbox entry's fate is stored, so it kills the child after (not before) that write.
const markSent = store.markOutboxSent.bind(store);
const markFailed = store.markOutboxFailed.bind(store);
store.markOutboxSent = async (...args) => {
  const marked = await markSent(...args);
  print({ type: "marked-sent" });
  return marked;
};
store.markOutboxFailed = async (...args) => {
  const marked = await markFailed(...args);
  print({ type: "marked-failed" });
  return marked;
};

const telegram = createTelegramChannel({
  accountId: "tg",
  token: options.telegram.token,
  apiRoot: options.telegram.apiRoot,
});
const start = telegram.start.bind(telegram);
telegram.start = (sink) =>
  start((message) => {
    print({ type: "inbound", eventId: message.eventId, text: message.text });
    return sink(message);
  });
const send = telegram.send.bind(telegram);
telegram.send = async (target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> => {
  print({ type: "send-attempt", chatId: target.chatId, text: outbound.text });
  if (options.send === "hang-before") return new Promise<never>(() => {});
  const sent = await send(target, outbound);
  print({ type: "sent", chatId: target.chatId, text: outbound.text, messageId: sent.messageId });
  return sent;
};

const gateway = new Gateway({
  config: {
    agents: [{ id: "main", model: "fake-model" }],
    channels: [{ channel: "telegram", dmPolicy: "open", admins: options.telegram.admins }],
  },
  store,
  channels: [telegram],
  streamFn: scriptedStreamFn(turnFor),
  models: { find: (id) => (id === "fake-model" ? fakeModel() : undefined), list: () => [fakeModel()] },
  agents: {
    main: options.approvals
      ? { tools: [deployProbe().tool], policies: [createApprovalPolicy({ require: ["deploy"] })] }
      : { tools: [] },
  },
  replyMode: "block",
  titles: false,
  outbox: { pollMs: 100, baseRetryMs: 100 },
});

// Never outlive the test, whatever happens.
setTimeout(() => process.exit(3), 20_000).unref();
await gateway.start();
print({ type: "ready" });
