import type { ExtensionStartContext } from "@chorus/gateway";

/** A model id in an agent's context settings that the gateway's catalog does not know: the gateway does not start. */
export class UnknownContextModelError extends Error {
  override readonly name = "UnknownContextModelError";
  /** Where in the configuration, e.g. `agents.main.context.sessionMemory.model`. */
  readonly path: string;

  constructor(path: string, model: string) {
    super(`${path}: unknown model "${model}" (not in the gateway's model catalog)`);
    this.path = path;
  }
}

/**
 * Checks a feature's optional model id at the gateway's start. Contract: throws `UnknownContextModelError` naming
 * `path` when `model` is set and the catalog lacks it; nothing otherwise.
 */
export function checkContextModel(context: ExtensionStartContext, path: string, model: string | undefined): void {
  if (model !== undefined && context.findModel(model) === undefined) throw new UnknownContextModelError(path, model);
}
