import {
  type AssistantMessage,
  AssistantMessageEventStream,
  emptyUsage,
  estimateTokens,
  type Model,
  type StreamContext,
  type StreamFn,
  type StreamOptions,
} from "@chorus/core";
import { BUDGET_EXHAUSTED } from "@chorus/gateway";
import type { Spend } from "@chorus/store";
import { isTransientStoreError } from "@chorus/store";
import type { Reservation } from "./budget-ledger.js";

/**
 * Reserves budget for one model call; undefined when nothing limits or counts it. `estimate` is called only when a
 * limit applies: it walks the whole context, which a call no budget limits should not pay for.
 */
export type ReserveCall = (call: {
  readonly sessionKey: string;
  readonly model: Model;
  /** The call's `purpose` (StreamOptions): what kind of call it is; absent for a turn's own. */
  readonly purpose: string | undefined;
  /** The output the call may produce and so reserves (`maxTokens`, else the model's maximum). */
  readonly maxOutput: number;
  readonly estimate: () => Spend;
}) => Promise<Reservation | undefined>;

/** The output one call may produce: its `maxTokens` (the agent's `maxOutputTokens`), at most the model's maximum. */
export function outputReserveOf(model: Model, options: StreamOptions | undefined): number {
  return Math.min(options?.maxTokens ?? model.maxOutput, model.maxOutput);
}

/** The worst case of one call: its input as estimated plus all the output it may produce, priced by the model. */
export function worstCaseOf(model: Model, context: StreamContext, options: StreamOptions | undefined): Spend {
  const input = estimateTokens(context.messages, context.systemPrompt) + toolTokens(context.tools);
  const output = outputReserveOf(model, options);
  return { tokens: input + output, cost: (input * model.cost.input + output * model.cost.output) / 1e6 };
}

/** An agent's tool list is the same array call after call: its size is measured once. */
const toolTokenCache = new WeakMap<object, number>();

function toolTokens(tools: StreamContext["tools"]): number {
  if (tools === undefined) return 0;
  let tokens = toolTokenCache.get(tools);
  if (tokens === undefined) {
    tokens = Math.ceil(JSON.stringify(tools).length / 4);
    toolTokenCache.set(tools, tokens);
  }
  return tokens;
}

/**
 * A StreamFn that reserves budget before each call of a session's run (the core loop passes the session key as
 * `sessionId`) and settles it with the call's reported usage after. A refused reservation makes no call: the stream
 * ends at once with an `invalid_request` error (never retried) whose message starts "Budget exhausted".
 * Contract: like every StreamFn, never throws; calls without a session key pass straight through.
 */
export function budgetedStreamFn(inner: StreamFn, reserve: ReserveCall): StreamFn {
  return (model, context, options) => {
    const sessionKey = options?.sessionId;
    if (sessionKey === undefined) return inner(model, context, options);
    const outer = new AssistantMessageEventStream();
    void relay(outer, inner, reserve, sessionKey, model, context, options);
    return outer;
  };
}

async function relay(
  outer: AssistantMessageEventStream,
  inner: StreamFn,
  reserve: ReserveCall,
  sessionKey: string,
  model: Model,
  context: StreamContext,
  options: StreamOptions | undefined,
): Promise<void> {
  let reservation: Reservation | undefined;
  try {
    reservation = await reserve({
      sessionKey,
      model,
      purpose: options?.purpose,
      maxOutput: outputReserveOf(model, options),
      estimate: () => worstCaseOf(model, context, options),
    });
  } catch (error) {
    // The store away (a database blip) passes: the loop retries the call with its backoff instead of failing the turn.
    const passing = isTransientStoreError(error);
    const message = `Budget check failed: ${String(error)}`;
    outer.push({ type: "error", reason: "error", error: failed(model, message, passing ? "network" : undefined) });
    return;
  }
  if (reservation?.ok === false) {
    outer.push({
      type: "error",
      reason: "error",
      error: failed(model, `${BUDGET_EXHAUSTED}: ${reservation.exhausted}`),
    });
    return;
  }
  let stream: AssistantMessageEventStream;
  try {
    stream = inner(model, context, options);
  } catch (error) {
    reservation?.settle({ tokens: 0, cost: 0 });
    outer.push({ type: "error", reason: "error", error: failed(model, `StreamFn failed: ${String(error)}`) });
    return;
  }
  for await (const event of stream) outer.push(event);
  const final = await stream.result();
  reservation?.settle({ tokens: final.usage.totalTokens, cost: final.usage.cost.total });
}

function failed(
  model: Model,
  message: string,
  kind: "network" | "invalid_request" = "invalid_request",
): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "error",
    errorMessage: message,
    error: { kind, message },
    timestamp: Date.now(),
  };
}
