import { createHmac, randomBytes } from "node:crypto";

/**
 * The cookie holding a browser's secret credential. Named anew on purpose: the old `chorus_browser` cookie held a
 * value that was also shown to every other browser, so it must never be accepted as a credential.
 */
export const CREDENTIAL_COOKIE = "chorus_webchat";

/** The cookie of the old, public browser id; cleared by the page and never read. */
export const LEGACY_BROWSER_COOKIE = "chorus_browser";

/** 256 random bits, base64url: exactly 43 characters. */
const CREDENTIAL = /^[A-Za-z0-9_-]{43}$/;

/** A new secret credential for a browser (256 random bits, URL-safe). */
export function newCredential(): string {
  return randomBytes(32).toString("base64url");
}

/** The value of cookie `name` in a Cookie header. Contract: undefined when absent; the first one wins. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/**
 * The browser's credential in a Cookie header.
 * Contract: undefined when absent or malformed (an old public id, too short, forged characters).
 */
export function credentialFromCookie(header: string | undefined): string | undefined {
  const value = cookieValue(header, CREDENTIAL_COOKIE);
  return value !== undefined && CREDENTIAL.test(value) ? value : undefined;
}

/** The Set-Cookie value for a credential: a year, this site only, not readable by scripts. */
export function credentialCookie(credential: string): string {
  return `${CREDENTIAL_COOKIE}=${credential}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict`;
}

/** The Set-Cookie value that removes the old public-id cookie from a browser. */
export function clearLegacyCookie(): string {
  return `${LEGACY_BROWSER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
}

/**
 * The public id of a browser: what others see (sender id in frames), its DM chat id and its session key part.
 * Contract: deterministic for one key and credential; an HMAC-SHA256, so it cannot be turned back into the
 * credential, and without the server's key it cannot be computed from a credential either. 22 characters (132 bits).
 */
export function publicIdOf(key: Buffer, credential: string): string {
  return createHmac("sha256", key).update(`webchat-browser:${credential}`).digest("base64url").slice(0, 22);
}

/** A short, friendly name for a browser in the shared room. */
export function guestName(publicId: string): string {
  return `guest-${publicId.slice(0, 6).toLowerCase()}`;
}
