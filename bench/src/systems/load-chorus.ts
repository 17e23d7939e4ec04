import type { CoreSystem, UnavailableSystem } from "./core-system.js";

export const CHORUS_NAME = "@chorus/core";

/**
 * Loads the Chorus system lazily: when @chorus/core's dist is missing or lacks the loop,
 * the suite still runs the other systems and prints why the Chorus column is empty.
 */
export async function loadChorusSystem(): Promise<CoreSystem | UnavailableSystem> {
  try {
    const { chorus } = await import("./chorus.js");
    return chorus;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { name: CHORUS_NAME, unavailable: "n/a (core not built)", detail: reason ?? "" };
  }
}
