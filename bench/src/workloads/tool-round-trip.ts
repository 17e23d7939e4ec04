import type { Scenario } from "./scenario.js";

const LOOKUP_KEY = "alpha";

/** What the lookup tool returns for a key; the final answer quotes it, so a skipped tool shows. */
function lookupValue(key: string): string {
  return `value-of-${key}`;
}

/** The final answer every system must produce for {@link toolRoundTrip}. */
export const TOOL_ROUND_TRIP_ANSWER = `The value is ${lookupValue(LOOKUP_KEY)}.`;

/**
 * W1: prompt → one tool call → final answer, with a zero-latency model and a tool that
 * resolves at once, so the time measured is the loop's own overhead.
 */
export const toolRoundTrip: Scenario = {
  name: "tool-round-trip",
  prompt: `What is the value of ${LOOKUP_KEY}?`,
  tools: [
    {
      name: "lookup",
      description: "Looks a key up and returns its value.",
      fields: [{ name: "key", type: "string" }],
      execute: async (args) => lookupValue(String(args.key)),
    },
  ],
  respond(toolResults) {
    const found = toolResults.find((result) => result.toolName === "lookup");
    if (!found) {
      return { steps: [{ kind: "toolCall", atMs: 0, id: "call_lookup", name: "lookup", args: { key: LOOKUP_KEY } }] };
    }
    return { steps: [{ kind: "text", atMs: 0, text: `The value is ${found.text}.` }] };
  },
};
