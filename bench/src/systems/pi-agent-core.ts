import { Agent, type AgentMessage, type AgentTool, agentLoop, type StreamFn } from "@mariozechner/pi-agent-core";
import {
  type AssistantMessage,
  createAssistantMessageEventStream,
  type Message,
  type Model,
  type TSchema,
  Type,
  type Usage,
} from "@mariozechner/pi-ai";
import type { Scenario, ScenarioTool } from "../workloads/scenario.js";
import { seenToolResults } from "../workloads/seen-tool-results.js";
import { playTurn } from "../workloads/turn-schedule.js";
import type { CoreSystem } from "./core-system.js";

const model: Model<"bench"> = {
  id: "bench-scripted",
  name: "Scripted bench model",
  api: "bench",
  provider: "bench",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 8_192,
};

function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** A pi-ai stream function that plays the scenario's scripted model. */
function scriptedStreamFn(scenario: Scenario): StreamFn {
  return (_model, context) => {
    const stream = createAssistantMessageEventStream();
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

function toolSchema(tool: ScenarioTool): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const field of tool.fields) properties[field.name] = field.type === "string" ? Type.String() : Type.Number();
  return Type.Object(properties);
}

function toAgentTool(tool: ScenarioTool): AgentTool {
  return {
    name: tool.name,
    label: tool.name,
    description: tool.description,
    parameters: toolSchema(tool),
    execute: async (_toolCallId, params, signal) => {
      const text = await tool.execute(params as Record<string, unknown>, signal);
      return { content: [{ type: "text", text }], details: undefined };
    },
  };
}

function finalText(messages: AgentMessage[]): string {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

const passThrough = (messages: AgentMessage[]): Message[] => messages as Message[];

/** `@mariozechner/pi-agent-core`: its `agentLoop` with a scripted pi-ai stream function. */
export const piAgentCore: CoreSystem = {
  name: "pi-agent-core",
  prepare(scenario) {
    const streamFn = scriptedStreamFn(scenario);
    const tools = scenario.tools.map(toAgentTool);
    const config = { model, convertToLlm: passThrough, toolExecution: "parallel" as const };
    return async () => {
      const prompt: AgentMessage = { role: "user", content: scenario.prompt, timestamp: Date.now() };
      const stream = agentLoop([prompt], { systemPrompt: "", messages: [], tools }, config, undefined, streamFn);
      for await (const _event of stream) {
        // Consume every event, as an app would.
      }
      return finalText(await stream.result());
    };
  },
  createIdleAgent(messages) {
    // The bench's transcripts hold text only, which both libraries' message types share.
    return new Agent({ initialState: { model, systemPrompt: "", messages: messages as never, tools: [] } });
  },
};
