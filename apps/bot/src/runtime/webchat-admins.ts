import type { InboundMessage } from "@chorus/gateway";

/** How many admin marks are kept: far more than messages can wait between the channel and the policy check. */
const MAX_MARKS = 10_000;

/**
 * The WebChat messages that came over an admin connection (a browser on this machine, with `localAdmin`), by event
 * id. The channel marks a message before handing it to the Gateway, which asks `isAdmin(message)` for every message
 * (its `isAdmin` option) while deciding its policy; a Gateway built by a reload sees the same marks.
 * Contract: admin-ness belongs to one message of one account, never to a sender id — a later connection presenting
 * the same id is not an admin; at most 10 000 marks are kept (the oldest dropped first).
 */
export class WebchatAdmins {
  readonly #marks = new Set<string>();

  /** Marks one inbound message of a WebChat account as sent over an admin connection. */
  markMessage(accountId: string, eventId: string): void {
    this.#marks.add(markOf(accountId, eventId));
    if (this.#marks.size > MAX_MARKS) {
      const oldest = this.#marks.values().next().value;
      if (oldest !== undefined) this.#marks.delete(oldest);
    }
  }

  /** Whether the message came over an admin connection of its WebChat account. */
  isAdmin(message: InboundMessage): boolean {
    return message.channel === "webchat" && this.#marks.has(markOf(message.accountId, message.eventId));
  }
}

function markOf(accountId: string, eventId: string): string {
  return `${accountId}\u0000${eventId}`;
}
