import type { InboundMessage } from "@chorus/gateway";

/**
 * The sender ids of local browsers, which are admins of their WebChat account (`localAdmin`). The Gateway asks
 * `isAdmin(message)` for every message (its `isAdmin` option), so an id added takes effect at once and a Gateway
 * built by a reload sees them all; the Gateway's configuration is never changed.
 * Contract: only WebChat messages of the account the browser connected to are admin messages.
 */
export class WebchatAdmins {
  readonly #ids = new Map<string, Set<string>>();

  /** Remembers a local browser of a WebChat account. */
  add(accountId: string, senderId: string): void {
    const ids = this.#ids.get(accountId) ?? new Set<string>();
    ids.add(senderId);
    this.#ids.set(accountId, ids);
  }

  /** Whether the message comes from a local browser of its WebChat account. */
  isAdmin(message: InboundMessage): boolean {
    return message.channel === "webchat" && this.#ids.get(message.accountId)?.has(message.sender.id) === true;
  }
}
