import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { cookieValue } from "./browser-identity.js";

/** The cookie proving a browser gave the access token once. */
export const ACCESS_COOKIE = "chorus_webchat_access";

/**
 * The access token check of a WebChat account: the token itself never leaves the server; a browser that gave it
 * holds a proof (an HMAC of the token with the server key) in an HttpOnly cookie, checked on every page load and
 * every WebSocket upgrade. A changed token makes every old proof invalid.
 * Contract: every comparison is constant-time; with no token configured, everyone has access.
 */
export class WebchatAccess {
  readonly #proof: Buffer | undefined;
  readonly #key: Buffer;

  constructor(key: Buffer, token: string | undefined) {
    this.#key = key;
    this.#proof = token === undefined ? undefined : this.#mac("webchat-access", token);
  }

  /** Whether this account asks for a token. */
  get required(): boolean {
    return this.#proof !== undefined;
  }

  /** Whether the request carries a valid proof cookie (always true when no token is configured). */
  granted(request: IncomingMessage): boolean {
    if (this.#proof === undefined) return true;
    const value = cookieValue(request.headers.cookie, ACCESS_COOKIE);
    if (value === undefined) return false;
    const given = Buffer.from(value, "utf8");
    return given.length === this.#proofText.length && timingSafeEqual(given, this.#proofText);
  }

  /** The Set-Cookie value for a token a browser typed, or undefined when it is not the configured token. */
  cookieFor(token: string): string | undefined {
    if (this.#proof === undefined) return undefined;
    // Compare MACs, not the strings: same length whatever was typed, and constant-time.
    if (!timingSafeEqual(this.#mac("webchat-access", token), this.#proof)) return undefined;
    return `${ACCESS_COOKIE}=${this.#proofText.toString("utf8")}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict`;
  }

  get #proofText(): Buffer {
    return Buffer.from((this.#proof ?? Buffer.alloc(0)).toString("base64url"), "utf8");
  }

  #mac(purpose: string, value: string): Buffer {
    return createHmac("sha256", this.#key).update(`${purpose}:${value}`).digest();
  }
}
