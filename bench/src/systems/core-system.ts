import type { Message } from "@chorus/core";
import type { Scenario } from "../workloads/scenario.js";

/** Runs a prepared scenario once from an empty transcript; resolves to the final answer text. */
export type ScenarioRunner = () => Promise<string>;

/**
 * One agent runtime under test. Everything a run needs (tools, model, config) is built
 * once in `prepare`, so the runner measures the loop, not the setup.
 */
export interface CoreSystem {
  /** Name printed in tables, e.g. "@chorus/core". */
  name: string;
  prepare(scenario: Scenario): ScenarioRunner;
  /** Creates an idle agent holding `messages`; absent when the system keeps no transcript itself. */
  createIdleAgent?: (messages: Message[]) => unknown;
}

/** A system that could not be loaded: `unavailable` fills its table cells, `detail` says why. */
export interface UnavailableSystem {
  name: string;
  unavailable: string;
  detail: string;
}
