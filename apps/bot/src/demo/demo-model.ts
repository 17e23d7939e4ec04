import type { Model } from "@chorus/core";
import { type ScriptedStreamFn, scriptedModel, scriptedProvider } from "@chorus/providers";
import { demoTurn } from "./demo-script.js";

/** How an agent names the demo model in its `model` field. */
export const DEMO_MODEL_REF = "demo";

/**
 * The offline demo model's description: provider "scripted", free.
 * Contract: always the same id (`chorus-demo`).
 */
export function demoModel(): Model {
  return scriptedModel({ id: "chorus-demo", name: "Chorus offline demo" });
}

/**
 * The demo model's StreamFn: `demoTurn` played by the scripted provider, streamed word by word.
 * Contract: deterministic; `tokenDelayMs` (default 15) only paces the stream so the page visibly streams.
 */
export function demoStreamFn(options: { tokenDelayMs?: number } = {}): ScriptedStreamFn {
  return scriptedProvider((context) => demoTurn(context), { tokenDelayMs: options.tokenDelayMs ?? 15 });
}
