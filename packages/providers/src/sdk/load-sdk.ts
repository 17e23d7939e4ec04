/**
 * A model SDK the program did not install: the provider that needs it names the package to install. Not worth a
 * retry (classified `invalid_request`).
 */
export class MissingSdkError extends Error {
  override readonly name = "MissingSdkError";
  /** As Node's own error for a package it cannot find, so the classifier knows it without importing this class. */
  readonly code = "ERR_MODULE_NOT_FOUND";

  constructor(
    readonly packageName: string,
    provider: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The ${provider} provider needs the ${packageName} package, which is not installed: npm install ${packageName}`,
      options,
    );
  }
}

/**
 * Loads a model SDK the first time a provider calls a model (the SDKs are optional peer dependencies: a program
 * installs only the one it uses). Contract: one import per loader, shared by every call; a package that is not
 * installed rejects with `MissingSdkError` (and is looked for again at the next call); any other failure as it is.
 * @example
 * const loadOpenAI = sdkLoader("openai", "OpenAI", () => import("openai").then((m) => m.default));
 * const OpenAI = await loadOpenAI();
 */
export function sdkLoader<T>(packageName: string, provider: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && String(error).includes(packageName)) {
        throw new MissingSdkError(packageName, provider, { cause: error });
      }
      throw error;
    });
    return loading;
  };
}
