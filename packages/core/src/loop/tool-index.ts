import type { LlmTool } from "../stream/stream-fn.js";
import { toLlmTool } from "../tools/define-tool.js";
import type { AnyAgentTool } from "../tools/tool-types.js";

/** A run's tools by name (the last of a name wins), the first name two of them share, and the model's view. */
export interface ToolIndex {
  readonly tools: readonly AnyAgentTool[];
  readonly byName: ReadonlyMap<string, AnyAgentTool>;
  readonly duplicate: string | undefined;
  /** Filled by `llmToolsOf` (building it may throw, which must happen inside a run, not when it is checked). */
  llmTools: LlmTool[] | undefined;
}

const NO_TOOLS: ToolIndex = { tools: [], byName: new Map(), duplicate: undefined, llmTools: undefined };

/** Per tools array, its index (whose `tools` are what it was built from: an array changed in place is indexed again). */
const indexes = new WeakMap<readonly AnyAgentTool[], ToolIndex>();

/**
 * The index of a tools array. Why remembered: an Agent (or an app) passes the same array run after run, and the
 * duplicate check, the map and the model's list were built again for every run. Contract: the same result as building
 * it afresh; never mutate what it returns. `remember` false for an array made for one run (nothing would find it again).
 */
export function toolIndex(tools: readonly AnyAgentTool[] | undefined, remember = true): ToolIndex {
  if (tools === undefined || tools.length === 0) return NO_TOOLS;
  const known = indexes.get(tools);
  if (known !== undefined && sameTools(known.tools, tools)) return known;
  const byName = new Map<string, AnyAgentTool>();
  let duplicate: string | undefined;
  for (const tool of tools) {
    if (duplicate === undefined && byName.has(tool.name)) duplicate = tool.name;
    byName.set(tool.name, tool);
  }
  // A remembered index keeps its own copy: the caller's array may change in place before the next run.
  const index: ToolIndex = { tools: remember ? tools.slice() : tools, byName, duplicate, llmTools: undefined };
  if (remember) indexes.set(tools, index);
  return index;
}

/** The model's view of the indexed tools; undefined when there are none. Throws what `toLlmTool` throws. */
export function llmToolsOf(index: ToolIndex): LlmTool[] | undefined {
  if (index.llmTools === undefined && index.tools.length > 0) index.llmTools = index.tools.map(toLlmTool);
  return index.llmTools;
}

function sameTools(a: readonly AnyAgentTool[], b: readonly AnyAgentTool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
