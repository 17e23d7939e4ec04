import { isSystemReminder, type Message, type StreamContext, type ToolResultMessage } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/providers";
import { recogniseIntent } from "./demo-intent.js";
import { DEMO_NOTICE, fallbackText, greetingText, helpText } from "./demo-replies.js";

/** How a sub-agent's system prompt starts (set by @chorus/tools), so the demo knows it is one. */
const SUBAGENT_PROMPT = /You are a sub-agent at depth (\d+)/;

/**
 * The demo model's whole behaviour: the next turn as a function of the conversation. It greets, helps, calls
 * current_time / list_dir / read_file, spawns a researcher sub-agent, and summarises tool results.
 * Contract: pure and deterministic for a given context; only calls tools that the context offers.
 */
export function demoTurn(context: StreamContext): ScriptedTurn {
  // System reminders (agents[].reminders) come after the message they accompany: the demo answers that message.
  const last = context.messages.findLast((message) => !isSystemReminder(message));
  const isChild = SUBAGENT_PROMPT.test(context.systemPrompt ?? "");
  if (last?.role === "toolResult") return afterTools(context.messages, isChild);
  const text = last?.role === "user" ? userText(last) : "";
  if (isChild) return childFirstTurn(context, text);
  const offers = (name: string) => context.tools?.some((tool) => tool.name === name) ?? false;
  const intent = recogniseIntent(text);
  switch (intent.kind) {
    case "greet":
      return greetingText();
    case "help":
      return helpText();
    case "time":
      return offers("current_time")
        ? { text: "Let me check the clock.", toolCalls: [{ name: "current_time", args: {} }] }
        : missingTool("current_time");
    case "list":
      return offers("list_dir")
        ? { text: `Looking in \`${intent.path}\`.`, toolCalls: [{ name: "list_dir", args: { path: intent.path } }] }
        : missingTool("list_dir");
    case "read":
      return offers("read_file")
        ? { text: `Opening \`${intent.path}\`.`, toolCalls: [{ name: "read_file", args: { path: intent.path } }] }
        : missingTool("read_file");
    case "research": {
      const agent = spawnableAgent(context);
      if (agent === undefined) return missingTool("spawn_agent");
      return {
        text: `I'll ask a **${agent}** sub-agent to research “${intent.topic}”.`,
        toolCalls: [
          {
            name: "spawn_agent",
            args: {
              agent,
              task: `Research "${intent.topic}" in the workspace and report what you find.`,
              mode: "wait",
              label: `research: ${intent.topic}`.slice(0, 80),
            },
          },
        ],
      };
    }
    case "other":
      return fallbackText(intent.text);
  }
}

function childFirstTurn(context: StreamContext, task: string): ScriptedTurn {
  if (context.tools?.some((tool) => tool.name === "list_dir")) {
    return { text: "Surveying the workspace.", toolCalls: [{ name: "list_dir", args: { path: "." } }] };
  }
  return `Research notes for: ${task}\n\nI had no tools to look around with, so this is all I can say.`;
}

function afterTools(messages: readonly Message[], isChild: boolean): ScriptedTurn {
  const results: ToolResultMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "toolResult") break;
    results.unshift(message);
  }
  if (isChild) {
    const listing = results.map(resultText).join("\n").trim();
    return [
      "**Research findings** (from the demo researcher sub-agent)",
      "",
      "The workspace holds:",
      "",
      fenced(listing),
      "",
      "`welcome.md` introduces Chorus; `notes/ideas.md` lists things to try. A real model would read and reason about them.",
    ].join("\n");
  }
  const parts = results.map((result) => describeResult(result));
  return [...parts, "", DEMO_NOTICE].join("\n");
}

function describeResult(result: ToolResultMessage): string {
  const text = resultText(result).trim();
  if (result.isError) return `The \`${result.toolName}\` tool failed: ${text}`;
  switch (result.toolName) {
    case "current_time":
      return `The \`current_time\` tool says:\n\n${fenced(text)}`;
    case "list_dir":
      return `Here is what \`list_dir\` found:\n\n${fenced(text)}\n\nAsk me to \`read welcome.md\` to open one.`;
    case "read_file":
      return `Here is the file, as \`read_file\` returned it:\n\n${fenced(text)}`;
    case "spawn_agent":
      return `My sub-agent reported back:\n\n${text}\n\nRun \`/agents\` while a research runs to see the tree.`;
    default:
      return `The \`${result.toolName}\` tool returned:\n\n${fenced(text)}`;
  }
}

function spawnableAgent(context: StreamContext): string | undefined {
  const spawn = context.tools?.find((tool) => tool.name === "spawn_agent");
  if (spawn === undefined) return undefined;
  const properties = (spawn.parameters as { properties?: Record<string, { description?: string; enum?: string[] }> })
    .properties;
  const agentField = properties?.agent;
  const fromEnum = agentField?.enum?.[0];
  if (fromEnum) return fromEnum;
  const listed = /One of: ([^,\s]+)/.exec(agentField?.description ?? "")?.[1];
  return listed ?? "researcher";
}

function missingTool(name: string): string {
  return `I would use the \`${name}\` tool for that, but this agent is not allowed to use it here.\n\n${DEMO_NOTICE}`;
}

function userText(message: Extract<Message, { role: "user" }>): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function resultText(result: ToolResultMessage): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function fenced(text: string): string {
  const clipped = text.length > 1500 ? `${text.slice(0, 1500)}\n…` : text;
  return `\`\`\`\n${clipped.replaceAll("```", "ʼʼʼ")}\n\`\`\``;
}
