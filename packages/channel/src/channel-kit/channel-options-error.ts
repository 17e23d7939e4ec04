/**
 * Invalid options given to a channel factory (missing token, unknown mode, …).
 * Contract: thrown synchronously by the factory, before any connection is made; the message never holds a secret.
 */
export class ChannelOptionsError extends Error {
  override readonly name = "ChannelOptionsError";
}
