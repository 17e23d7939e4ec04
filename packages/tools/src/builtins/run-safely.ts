import type { ToolOutput } from "@chorus/core";
import { errorOutput } from "../tool-results/text-results.js";

/**
 * Runs a tool body and turns any thrown error into an error result whose text the model reads.
 * Contract: never throws; the error's message is kept, its stack is not.
 */
export async function runSafely(body: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await body();
  } catch (error) {
    return errorOutput(error instanceof Error ? error.message : String(error));
  }
}
