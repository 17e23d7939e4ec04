import { createInterface, type Interface } from "node:readline";
import type {
  Channel,
  ChannelCapabilities,
  InboundSink,
  OutboundMessage,
  SendTarget,
  SentMessage,
} from "@chorus/gateway";

/** The sender id of the person at the terminal (an admin of the terminal channel). */
export const TERMINAL_USER_ID = "you";

/** Options of the terminal channel. */
export interface TerminalChannelOptions {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly now?: () => number;
}

/** Plain text, whole replies (no edits: a terminal cannot rewrite what it printed). */
export const TERMINAL_CAPABILITIES: ChannelCapabilities = {
  maxMessageLength: 16_000,
  edit: false,
  delete: false,
  typing: true,
  threads: false,
  reactions: false,
  buttons: false,
  markup: "plain",
  editRate: { edits: 1, perMs: 1000 },
};

/**
 * A DM with the bot in this terminal (`chorus chat`): each line typed is a message, each reply is printed.
 * Contract: `closed` resolves when the input ends (Ctrl-D) or `stop` is called.
 */
export class TerminalChannel implements Channel {
  readonly id = "terminal";
  readonly accountId = "local";
  readonly capabilities = TERMINAL_CAPABILITIES;
  readonly closed: Promise<void>;
  readonly #options: TerminalChannelOptions;
  readonly #now: () => number;
  #readline: Interface | undefined;
  #close: () => void = () => {};
  #next = 1;

  constructor(options: TerminalChannelOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.closed = new Promise((resolve) => {
      this.#close = resolve;
    });
  }

  async start(sink: InboundSink): Promise<void> {
    const readline = createInterface({ input: this.#options.input, terminal: false });
    this.#readline = readline;
    this.#prompt();
    readline.on("line", (line) => {
      const text = line.trim();
      if (text === "") {
        this.#prompt();
        return;
      }
      const id = `t${this.#next++}`;
      const at = this.#now();
      void sink({
        channel: this.id,
        accountId: this.accountId,
        chatType: "dm",
        chatId: TERMINAL_USER_ID,
        messageId: id,
        eventId: `${id}:${at}`,
        sender: { id: TERMINAL_USER_ID, name: "you", isBot: false },
        text,
        mentionsBot: true,
        replyToBot: false,
        attachments: [],
        receivedAt: at,
      });
    });
    readline.once("close", () => this.#close());
  }

  async stop(): Promise<void> {
    this.#readline?.close();
    this.#readline = undefined;
    this.#close();
  }

  async send(target: SendTarget, outbound: OutboundMessage): Promise<SentMessage> {
    this.#options.output.write(`\nchorus › ${outbound.text.replaceAll("\n", "\n         ")}\n`);
    this.#prompt();
    return { messageId: `r${this.#next++}`, chatId: target.chatId, sentAt: this.#now() };
  }

  async typing(): Promise<void> {}

  #prompt(): void {
    this.#options.output.write("\nyou › ");
  }
}
