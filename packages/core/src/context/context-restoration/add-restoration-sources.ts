import type { ContextConfig } from "../../loop/loop-config.js";
import type { ContextRestorationConfig } from "./restoration-config.js";

/** The sources an app or extension adds to a context's restoration. */
export type RestorationSources = Pick<ContextRestorationConfig, "recentFiles" | "plan" | "todos" | "skills">;

/**
 * `context` with `sources` added to its restoration (e.g. an extension's loaded skills or plan), unless restoration
 * was turned off there (`enabled: false`). Contract: returns a new object; `context` is not changed; a source given
 * here replaces one of the same kind.
 * @example context: (c) => addRestorationSources(c, { skills: loadedSkillsSource(skills) })
 */
export function addRestorationSources(context: ContextConfig, sources: RestorationSources): ContextConfig {
  if (context.restoration?.enabled === false) return context;
  return { ...context, restoration: { ...context.restoration, ...sources } };
}
