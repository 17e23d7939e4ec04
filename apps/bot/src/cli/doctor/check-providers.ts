import type { Model } from "@chorus/core";
import type { BotConfig } from "../../config/bot-config-schema.js";
import { secretsOf } from "../../config/config-secrets.js";
import { scrubSecrets } from "../../logging/secret-scrubber.js";
import { buildBotStreamFn } from "../../models/bot-stream-fn.js";
import { buildModelRegistry, resolveModelRef } from "../../models/model-reference.js";
import { CHECK_TIMEOUT_MS, type DoctorCheck } from "./doctor-check.js";

/**
 * Checks the key of every provider an agent uses with one tiny real request (a few output tokens) to the agent's
 * model at the configured base URL, so the key, the URL and the model id are all proven at once.
 * Contract: never rejects; one check per distinct model; the demo model passes without a request.
 */
export async function checkProviders(config: BotConfig): Promise<DoctorCheck[]> {
  const registry = buildModelRegistry(config);
  const streamFn = buildBotStreamFn(config, { tokenDelayMs: 0 });
  const models = new Map<string, Model>();
  for (const agent of config.agents) {
    try {
      const model = resolveModelRef(agent.model, registry, config);
      models.set(`${model.provider}/${model.id}`, model);
    } catch {
      // Reported by the config check.
    }
  }
  const secrets = secretsOf(config);
  return Promise.all(
    [...models].map(async ([name, model]): Promise<DoctorCheck> => {
      if (model.provider === "scripted")
        return { name: "model demo", ok: true, detail: "the offline demo model needs no key" };
      const message = await streamFn(
        model,
        { messages: [{ role: "user", content: "Reply with the single word: ok", timestamp: Date.now() }] },
        { maxTokens: 16, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) },
      ).result();
      if (message.stopReason !== "error" && message.stopReason !== "aborted") {
        return { name: `model ${name}`, ok: true, detail: "key accepted; the model answered" };
      }
      const kind = message.error?.kind;
      const why = scrubSecrets(message.errorMessage ?? message.error?.message ?? "no answer", secrets);
      const detail =
        kind === "auth"
          ? `key rejected: ${why}`
          : kind === "aborted" || kind === "timeout"
            ? `no answer within ${CHECK_TIMEOUT_MS / 1000} s`
            : `request failed (${kind ?? "error"}): ${why}`;
      return { name: `model ${name}`, ok: false, detail };
    }),
  );
}
