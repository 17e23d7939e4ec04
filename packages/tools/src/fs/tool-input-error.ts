/** A tool call that cannot be carried out as asked; the message is shown to the model. */
export class ToolInputError extends Error {
  override readonly name = "ToolInputError";
}
