import { ChannelError } from "../channel/channel-error.js";

/** Turns whatever a platform library threw during `operation` into a ChannelError. */
export type ToChannelError = (error: unknown, operation: string) => ChannelError;

/**
 * The platform client of a channel while it runs (a discord.js Client, a bolt App, a grammy Bot), and the
 * start/stop/call scaffolding every adapter shares around it, so each refuses the same way before `start`, after
 * `stop` and on a second `start`.
 * Contract: `call` runs `run` with the client and rethrows its failure through `toChannelError`; without a client it
 * throws ChannelError "unknown" ("<platform> <operation>: the channel is not started"). `claim` throws ChannelError
 * "unknown" while a client is held. `connect` runs the platform part of a start; if it fails, `stop` runs first and
 * the failure is rethrown as the ChannelError of operation "start".
 * @example
 * const slot = new ClientSlot<Bot>("telegram", toTelegramChannelError);
 * slot.claim(); slot.hold(new Bot(token));
 * await slot.connect(() => bot.api.getMe(), () => channel.stop());
 * await slot.call("send", (bot) => bot.api.sendMessage(chatId, text));
 * const bot = slot.release(); // in stop
 */
export class ClientSlot<Client> {
  readonly #platform: string;
  readonly #toChannelError: ToChannelError;
  #client: Client | undefined;

  constructor(platform: string, toChannelError: ToChannelError) {
    this.#platform = platform;
    this.#toChannelError = toChannelError;
  }

  /** The client while the channel runs. */
  get current(): Client | undefined {
    return this.#client;
  }

  /** Called first thing in `start`: a channel starts once until it is stopped. */
  claim(): void {
    if (this.#client !== undefined) throw new ChannelError("unknown", `${this.#platform} channel is already started`);
  }

  hold(client: Client): void {
    this.#client = client;
  }

  /** Forgets the client (every later call is refused) and hands it back, to be shut down. */
  release(): Client | undefined {
    const client = this.#client;
    this.#client = undefined;
    return client;
  }

  async connect(connecting: () => Promise<void>, stop: () => Promise<void>): Promise<void> {
    try {
      await connecting();
    } catch (error) {
      await stop();
      throw this.#toChannelError(error, "start");
    }
  }

  async call<T>(operation: string, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#client;
    if (client === undefined) {
      throw new ChannelError("unknown", `${this.#platform} ${operation}: the channel is not started`);
    }
    try {
      return await run(client);
    } catch (error) {
      throw this.#toChannelError(error, operation);
    }
  }
}
