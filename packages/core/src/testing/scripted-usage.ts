import type { Usage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { ScriptedUsage } from "./script-types.js";

/** Turns a scripted usage into a full Usage, pricing it with the model when no cost is given. */
export function scriptedUsage(model: Model, usage: ScriptedUsage | undefined): Usage {
  const input = usage?.input ?? 0;
  const output = usage?.output ?? 0;
  const cacheRead = usage?.cacheRead ?? 0;
  const cacheWrite = usage?.cacheWrite ?? 0;
  const price = model.cost;
  const cost = {
    input: usage?.cost?.input ?? (input * price.input) / 1e6,
    output: usage?.cost?.output ?? (output * price.output) / 1e6,
    cacheRead: usage?.cost?.cacheRead ?? (cacheRead * price.cacheRead) / 1e6,
    cacheWrite: usage?.cost?.cacheWrite ?? (cacheWrite * price.cacheWrite) / 1e6,
    total: 0,
  };
  cost.total = usage?.cost?.total ?? cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: usage?.totalTokens ?? input + output + cacheRead + cacheWrite,
    cost,
  };
}
