import { RESTART_TOOL_RESULT } from "@chorus/gateway";
import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import {
  adminDm,
  cleanUpChildren,
  freshDbPath,
  type GatewayChild,
  sentTexts,
  startGatewayChild,
} from "./durable-child-harness.js";

afterEach(cleanUpChildren);

const SESSION_KEY = "main:main:test:dm:admin";
const RESTART_NOTICE = "I was restarted while working on this — reply 'continue' to pick up.";

/** Asks for the fixture's slow tool and kills the gateway with SIGKILL while the tool runs. */
async function killWhileToolRuns(dbPath: string): Promise<void> {
  const first = await startGatewayChild({ dbPath });
  first.inject(adminDm("tool", "m-1"));
  await first.waitFor((line) => line.type === "tool-start", "the tool started");
  await first.kill();
}

function sent(child: GatewayChild, prefix: string): Promise<unknown> {
  return child.waitFor((line) => line.type === "sent" && (line.text ?? "").startsWith(prefix), `"${prefix}…" was sent`);
}

it("marks the run interrupted, repairs its tool call, tells the chat, and continues on 'continue'", async () => {
  const dbPath = freshDbPath();
  await killWhileToolRuns(dbPath);

  const second = await startGatewayChild({ dbPath });
  await sent(second, RESTART_NOTICE);
  second.inject(adminDm("continue", "m-2"));
  // The model sees the earlier request and the repaired tool call's synthetic result.
  await sent(second, "continuing after:");
  await second.kill();

  expect(sentTexts(second)).toEqual([RESTART_NOTICE, `continuing after: tool; tool results: ${RESTART_TOOL_RESULT}`]);
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const messages = (await store.readTranscript(SESSION_KEY)).map((entry) => entry.message);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
    const call = (messages[1] as { content: { type: string; id?: string }[] }).content.find(
      (b) => b.type === "toolCall",
    );
    expect(messages[2]).toMatchObject({
      role: "toolResult",
      toolCallId: call?.id,
      toolName: "slow_tool",
      isError: true,
      content: [{ type: "text", text: RESTART_TOOL_RESULT }],
    });
    const runs = await store.listRuns({ sessionKey: SESSION_KEY });
    expect(runs.map((run) => run.status)).toEqual(["interrupted", "completed"]);
  } finally {
    await store.close();
  }
});

it("resumes the interrupted run by itself when the gateway is configured with onRestart: resume", async () => {
  const dbPath = freshDbPath();
  await killWhileToolRuns(dbPath);

  const second = await startGatewayChild({ dbPath, onRestart: "resume" });
  await sent(second, "continuing after:");
  await second.kill();

  expect(sentTexts(second)).toEqual([
    "I was restarted while working on this — picking up where I left off.",
    `continuing after: tool; tool results: ${RESTART_TOOL_RESULT}`,
  ]);
  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const runs = await store.listRuns({ sessionKey: SESSION_KEY });
    expect(runs.map((run) => run.status)).toEqual(["interrupted", "completed"]);
  } finally {
    await store.close();
  }
});
