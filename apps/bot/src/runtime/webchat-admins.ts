import type { Gateway } from "@chorus/gateway";

/**
 * The sender ids of local browsers, which are admins of their WebChat account (`localAdmin`). They join the
 * account's admin list in the Gateway's config; the Gateway resolves the policy per message, so an id added takes
 * effect at once, and a Gateway built by a reload gets them all again.
 * Contract: only accounts whose policy entry has an admin list (gatewayConfigOf gives one to localAdmin accounts).
 */
export class WebchatAdmins {
  readonly #ids = new Map<string, Set<string>>();

  add(accountId: string, senderId: string, gateway: Gateway | undefined): void {
    const ids = this.#ids.get(accountId) ?? new Set<string>();
    ids.add(senderId);
    this.#ids.set(accountId, ids);
    if (gateway !== undefined) this.applyTo(gateway);
  }

  applyTo(gateway: Gateway): void {
    for (const [accountId, ids] of this.#ids) {
      const entry = gateway.config.channels.find((item) => item.channel === "webchat" && item.accountId === accountId);
      if (entry?.admins === undefined) continue;
      for (const id of ids) if (!entry.admins.includes(id)) entry.admins.push(id);
    }
  }
}
