import { describe, expect, it } from "vitest";
import { classifyProviderError } from "../src/errors/classify-error.js";
import { MissingSdkError, sdkLoader } from "../src/sdk/load-sdk.js";

/** What Node's import throws for a package that is not installed. */
const notInstalled = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), { code: "ERR_MODULE_NOT_FOUND" });

describe("a model SDK the program did not install", () => {
  it("is named with the command that installs it, classified as not worth a retry, and looked for again later", async () => {
    let attempts = 0;
    const load = sdkLoader("openai", "OpenAI", async () => {
      attempts += 1;
      if (attempts === 1) throw notInstalled("openai");
      return "the SDK";
    });
    const failure = await load().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MissingSdkError);
    expect((failure as Error).message).toBe(
      "The OpenAI provider needs the openai package, which is not installed: npm install openai",
    );
    expect(classifyProviderError(failure, { authHint: "OPENAI_API_KEY" })).toMatchObject({ kind: "invalid_request" });
    // Installed meanwhile: the next call finds it, and every later call shares that one import.
    expect(await load()).toBe("the SDK");
    expect(await load()).toBe("the SDK");
    expect(attempts).toBe(2);
  });

  it("passes any other failure of the SDK's import on as it is", async () => {
    const broken = new Error("SyntaxError in the SDK");
    const load = sdkLoader("openai", "OpenAI", async () => {
      throw broken;
    });
    await expect(load()).rejects.toBe(broken);
  });
});
