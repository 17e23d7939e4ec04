/**
 * An extension that cannot be registered: a command or `/agents` section name that is malformed or taken (by a
 * builtin or another extension), or an extension without a name.
 * Contract: thrown by the Gateway's constructor; `extension` names the extension at fault.
 */
export class ExtensionError extends Error {
  override readonly name = "ExtensionError";
  constructor(
    readonly extension: string,
    message: string,
  ) {
    super(`extension "${extension}": ${message}`);
  }
}
