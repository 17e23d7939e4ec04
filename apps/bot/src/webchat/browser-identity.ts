import { randomBytes } from "node:crypto";

/** The cookie that keeps one DM session per browser. */
export const BROWSER_COOKIE = "chorus_browser";

const BROWSER_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** A new random browser id (128 bits, URL-safe). */
export function newBrowserId(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * The browser id in a Cookie header.
 * Contract: undefined when absent or malformed (a forged value never reaches a session key unchecked).
 */
export function browserIdFromCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === BROWSER_COOKIE) {
      const value = rest.join("=");
      return BROWSER_ID.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The Set-Cookie value for a browser id: a year, this site only, not readable by scripts. */
export function browserCookie(id: string): string {
  return `${BROWSER_COOKIE}=${id}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict`;
}

/** A short, friendly name for a browser in the shared room. */
export function guestName(browserId: string): string {
  return `guest-${browserId.slice(0, 4).toLowerCase()}`;
}
