/**
 * The title model named by the configuration is not a model the gateway knows.
 * Contract: thrown by `titlesExtension`'s `start` (the gateway's start fails with it); its message starts with `path`.
 */
export class UnknownTitleModelError extends Error {
  override readonly name = "UnknownTitleModelError";
  /** Where in the configuration: `titles.model`. */
  readonly path = "titles.model";

  constructor(readonly model: string) {
    super(`titles.model: unknown model "${model}" (not in the gateway's model catalog)`);
  }
}
