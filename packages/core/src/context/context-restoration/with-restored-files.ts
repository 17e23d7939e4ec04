import type { AgentMessage } from "../../messages/message-types.js";
import type { ToolRunInfo } from "../../tools/tool-types.js";
import { attachRestoration } from "./attach-restoration.js";
import { CONTEXT_RESTORATION_DEFAULTS, type ContextRestorationConfig } from "./restoration-config.js";
import { restorationSections } from "./restoration-sections.js";
import { restorationText } from "./restoration-text.js";

/** The compacted transcript with the restoration attached, or as it was; `error` says which sources failed, and why. */
export type RestorationOutcome = { messages: AgentMessage[]; error?: string };

/**
 * Brings back, after a summarising compaction (seed 004 `restore_context_after_compact`, tier 2 and the kept-summary
 * tier alike), the plan, the pending todos, the loaded skills and the recently read files, in one attachment to the
 * compacted transcript: used by the loop after its automatic summary and by apps after their own (a `/compact`).
 * `transcript` is the transcript before the summary (what the plan, todos and skills sources look into; default
 * `messages`). Each source may take `sourceTimeoutMs`; one that throws or is late is left out and named in `error`.
 * Contract: never throws; returns `messages` itself when restoration is off, has no source, or nothing to attach.
 * @example const { messages } = await withRestoredContext({ recentFiles, skills }, run, compacted, before);
 */
export async function withRestoredContext(
  config: ContextRestorationConfig | undefined,
  run: ToolRunInfo,
  messages: AgentMessage[],
  transcript: readonly AgentMessage[] = messages,
): Promise<RestorationOutcome> {
  if (config === undefined || config.enabled === false) return { messages };
  const { recentFiles, plan, todos, skills } = config;
  if (recentFiles === undefined && plan === undefined && todos === undefined && skills === undefined) {
    return { messages };
  }
  const timeoutMs = config.sourceTimeoutMs ?? CONTEXT_RESTORATION_DEFAULTS.sourceTimeoutMs;
  const maxFiles = config.maxFiles ?? CONTEXT_RESTORATION_DEFAULTS.maxFiles;
  const errors: string[] = [];
  const ask = <T>(name: string, call: (() => T | Promise<T>) | undefined): Promise<T | undefined> =>
    call === undefined ? Promise.resolve(undefined) : bounded(name, call, timeoutMs, errors);
  const [planText, todoItems, loadedSkills, files] = await Promise.all([
    ask("plan", plan && (() => plan(run, transcript))),
    ask("todos", todos && (() => todos(run, transcript))),
    ask("skills", skills && (() => skills(run, transcript))),
    // Ask for more files than fit: some are still in the kept messages or over the budget.
    ask("recentFiles", recentFiles && (() => recentFiles(run, maxFiles * 2))),
  ]);
  const sections = restorationSections({ plan: planText, todos: todoItems, skills: loadedSkills }, config);
  const budget = config.totalBudgetTokens ?? CONTEXT_RESTORATION_DEFAULTS.totalBudgetTokens;
  const restoredFiles =
    files === undefined
      ? undefined
      : restorationText(files, messages, { ...config, totalBudgetTokens: budget - sections.tokens });
  const texts = restoredFiles === undefined ? sections.texts : [...sections.texts, restoredFiles.text];
  const outcome: RestorationOutcome = {
    messages: texts.length === 0 ? messages : attachRestoration(messages, texts.join("\n\n")),
  };
  if (errors.length > 0) outcome.error = errors.join("; ");
  return outcome;
}

/**
 * The same as `withRestoredContext` (its earlier name, from when only files came back).
 * @deprecated use withRestoredContext.
 */
export const withRestoredFiles = withRestoredContext;

const LATE: unique symbol = Symbol("late");

/** A source's answer within `timeoutMs`; undefined (and a line in `errors`) when it throws or is late. */
async function bounded<T>(
  name: string,
  call: () => T | Promise<T>,
  timeoutMs: number,
  errors: string[],
): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), timeoutMs);
  });
  try {
    const answer = await Promise.race([Promise.resolve().then(call), late]);
    if (answer !== LATE) return answer as T;
    errors.push(`${name}: no answer within ${timeoutMs} ms`);
  } catch (error) {
    errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
  return undefined;
}
