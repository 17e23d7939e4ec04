import type { Model, StreamContext } from "@chorus/core";
import { type Script, type ScriptedStreamFn, type ScriptedTurn, scriptedStreamFn } from "@chorus/core/testing";
import { API } from "../models/api-names.js";
import { type Chunking, tokenizeTurn } from "./tokenize-turn.js";

/** Options of the scripted provider. */
export interface ScriptedProviderOptions {
  /** Delay before every streamed token, in ms (0 or absent: no timers at all). */
  tokenDelayMs?: number;
  /** How text is split into deltas. Default "word". */
  chunking?: Chunking;
  /** With a list script: start again from the first turn after the last (for demos). */
  loop?: boolean;
}

/**
 * A StreamFn that plays a script deterministically: a list of turns, or a function of the
 * context choosing each turn. Built on @chorus/core/testing's scriptedStreamFn, plus token-by-token
 * streaming, per-token delays and looping.
 * Contract: never throws unless a turn is the `throw` fault; `calls` records every call.
 */
export function scriptedProvider(script: Script, options: ScriptedProviderOptions = {}): ScriptedStreamFn {
  const chunking = options.chunking ?? "word";
  const delay = options.tokenDelayMs;
  const pick =
    typeof script === "function"
      ? script
      : (_context: StreamContext, index: number): ScriptedTurn | undefined =>
          options.loop && script.length > 0 ? script[index % script.length] : script[index];
  return scriptedStreamFn((context, index) => {
    const turn = pick(context, index);
    if (turn === undefined) {
      return {
        fault: "error",
        error: { kind: "invalid_request", message: `scripted provider: script exhausted after ${index} turns` },
      };
    }
    return tokenizeTurn(turn, chunking, delay);
  });
}

/**
 * The model description of the scripted provider.
 * Contract: api and provider "scripted", free, 200k window, every capability; `overrides` win.
 */
export function scriptedModel(overrides: Partial<Model> = {}): Model {
  return {
    id: "scripted",
    name: "Scripted (offline)",
    provider: "scripted",
    api: API.scripted,
    contextWindow: 200_000,
    maxOutput: 8_192,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    capabilities: { tools: true, thinking: true, images: true },
    ...overrides,
  };
}
