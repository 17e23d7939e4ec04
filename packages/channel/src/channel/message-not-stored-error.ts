/**
 * A message that could not be stored, from a platform that sends it again when it is not acknowledged: the channel
 * answers its platform with the retry signal (HTTP 5xx) so that it is redelivered, instead of the sender being told.
 * Contract: `cause` is the store's error.
 */
export class MessageNotStoredError extends Error {
  override readonly name = "MessageNotStoredError";
  constructor(cause: unknown) {
    super("the message could not be stored; the platform is asked to deliver it again", { cause });
  }
}

/** Whether an error from the inbound sink asks the channel to refuse the event so that its platform redelivers it. */
export function isMessageNotStored(error: unknown): error is MessageNotStoredError {
  return error instanceof Error && error.name === "MessageNotStoredError";
}
