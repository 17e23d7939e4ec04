import type { AgentMessage, AnyAgentTool, AssistantMessage, Model, StreamFn } from "@chorus/core";
import * as installedCore from "@chorus/core";
import { z } from "zod";
import type { Scenario, ScenarioTool } from "../workloads/scenario.js";
import { seenToolResults } from "../workloads/seen-tool-results.js";
import { toolRoundTrip } from "../workloads/tool-round-trip.js";
import { playTurn } from "../workloads/turn-schedule.js";
import type { CoreSystem } from "./core-system.js";
import { CHORUS_NAME } from "./load-chorus.js";

const model: Model = {
  id: "bench-scripted",
  name: "Scripted bench model",
  provider: "bench",
  api: "bench",
  contextWindow: 200_000,
  maxOutput: 8_192,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  capabilities: { tools: true, thinking: false, images: false },
};

/** What the bench uses of `@chorus/core` (another build of it, e.g. a baseline, provides the same). */
export type ChorusCoreModule = Pick<
  typeof installedCore,
  "Agent" | "agentLoop" | "defineTool" | "emptyUsage" | "AssistantMessageEventStream"
>;

/** A Chorus StreamFn that plays the scenario's scripted model. */
function scriptedStreamFn(core: ChorusCoreModule, scenario: Scenario): StreamFn {
  const { AssistantMessageEventStream, emptyUsage } = core;
  return (_model, context) => {
    const stream = new AssistantMessageEventStream();
    const turn = scenario.respond(seenToolResults(context.messages));
    const partial: AssistantMessage = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
    stream.push({ type: "start", partial });
    let calledTools = false;
    playTurn(
      turn,
      (step) => {
        const contentIndex = partial.content.length;
        if (step.kind === "text") {
          partial.content.push({ type: "text", text: step.text });
          stream.push({ type: "text_start", contentIndex, partial });
          stream.push({ type: "text_delta", contentIndex, delta: step.text, partial });
          stream.push({ type: "text_end", contentIndex, content: step.text, partial });
          return;
        }
        calledTools = true;
        const toolCall = { type: "toolCall" as const, id: step.id, name: step.name, arguments: step.args };
        partial.content.push(toolCall);
        stream.push({ type: "toolcall_start", contentIndex, partial });
        stream.push({ type: "toolcall_delta", contentIndex, delta: JSON.stringify(step.args), partial });
        stream.push({ type: "toolcall_end", contentIndex, toolCall, partial });
      },
      () => {
        const reason = calledTools ? "toolUse" : "stop";
        stream.push({ type: "done", reason, message: { ...partial, stopReason: reason } });
      },
    );
    return stream;
  };
}

function toolSchema(spec: ScenarioTool) {
  const shape: Record<string, z.ZodString | z.ZodNumber> = {};
  for (const field of spec.fields) shape[field.name] = field.type === "string" ? z.string() : z.number();
  return z.object(shape);
}

function toChorusTool(core: ChorusCoreModule, spec: ScenarioTool): AnyAgentTool {
  return core.defineTool({
    name: spec.name,
    description: spec.description,
    parameters: toolSchema(spec),
    category: "info",
    // The scenario's tools only read or wait: safe to run side by side, as the other systems do by default.
    concurrencySafe: true,
    execute: async (args, ctx) => ({ content: [{ type: "text", text: await spec.execute(args, ctx.signal) }] }),
  });
}

function finalText(messages: AgentMessage[]): string {
  const last = messages.at(-1);
  if (!last || !("role" in last) || last.role !== "assistant") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * A Chorus system on a given build of `@chorus/core`: its `agentLoop` with a scripted StreamFn, streaming tool
 * execution on. Contract: `name` labels it in tables.
 */
export function chorusSystemOf(core: ChorusCoreModule, name: string): CoreSystem {
  // Idle agents never call their model; they still need a StreamFn to be built.
  const idleStreamFn = scriptedStreamFn(core, toolRoundTrip);
  return {
    name,
    prepare(scenario) {
      const config = {
        model,
        streamFn: scriptedStreamFn(core, scenario),
        tools: scenario.tools.map((tool) => toChorusTool(core, tool)),
        toolExecution: { streaming: true },
      };
      return async () => {
        const prompt: AgentMessage = { role: "user", content: scenario.prompt, timestamp: Date.now() };
        const stream = core.agentLoop([prompt], { messages: [] }, config);
        for await (const _event of stream) {
          // Consume every event, as an app would.
        }
        return finalText(await stream.result());
      };
    },
    createIdleAgent(messages) {
      return new core.Agent({ model, streamFn: idleStreamFn, messages });
    },
  };
}

/** `@chorus/core` as installed in this workspace. */
export const chorus: CoreSystem = chorusSystemOf(installedCore, CHORUS_NAME);
