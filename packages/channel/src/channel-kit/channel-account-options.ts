/**
 * The options every platform adapter takes besides its platform's own; each adapter's options type extends this.
 * Contract: `accountId` is required and non-blank (each adapter checks it with requireOption); `onError` hears what the
 * channel survives and never stops it; `now` defaults to Date.now.
 * @example interface MatrixChannelOptions extends ChannelAccountOptions { readonly homeserver: string }
 */
export interface ChannelAccountOptions {
  /** Names this account among several of one platform; appears in every InboundMessage. */
  readonly accountId: string;
  /** Called with errors the channel survives: a sink that throws, a failed acknowledgement, the library's own. */
  readonly onError?: (error: unknown) => void;
  /** Clock for receivedAt / sentAt and the edit budget; default Date.now. */
  readonly now?: () => number;
}
