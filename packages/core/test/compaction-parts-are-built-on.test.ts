import { describe, expect, it } from "vitest";
import {
  type AgentMessage,
  findCompactionCut,
  isCompactionPart,
  type Message,
  type StreamContext,
  SUMMARY_PREFIX,
  summarizeOlderMessages,
} from "../src/index.js";
import { assistantText, userMessage } from "../src/testing/index.js";

// Seed 002: a compaction's result is kept as a part of the history that later compactions build on — never
// summarised again, never removed.
const big = (n: number): string => "x".repeat(n * 4);
const part = (text: string): AgentMessage => userMessage(SUMMARY_PREFIX + text);

function summariser(answer: string) {
  const asked: StreamContext[] = [];
  return {
    asked,
    request: (messages: AgentMessage[]) => ({
      messages,
      keepRecentTokens: 1_000,
      convert: (m: AgentMessage[]) => m as Message[],
      prompt: "summarise",
      complete: async (context: StreamContext) => {
        asked.push(context);
        return { ...assistantText(answer), stopReason: "stop" as const };
      },
    }),
  };
}

const text = (m: unknown): string => {
  const content = (m as { content: unknown }).content;
  return typeof content === "string" ? content : (content as { text?: string }[]).map((c) => c.text ?? "").join("");
};

describe("compaction parts", () => {
  it("a second compaction keeps the first part as it is and adds its own, summarising only what followed it", async () => {
    const first = part("they planned a trip to Lisbon");
    const transcript = [
      first,
      userMessage(`book the flight ${big(800)}`),
      assistantText(`booked ${big(800)}`),
      userMessage(`now the hotel ${big(800)}`),
      assistantText(`hotel done ${big(800)}`),
    ];
    const s = summariser("flight and hotel booked");
    const outcome = await summarizeOlderMessages(s.request(transcript));
    expect(outcome.ok).toBe(true);
    const messages = outcome.ok ? outcome.messages : [];
    // The first part is the same message, first; the new part follows it; then the recent tail.
    expect(messages[0]).toBe(first);
    expect(text(messages[1])).toBe(`${SUMMARY_PREFIX}flight and hotel booked`);
    expect(messages.filter(isCompactionPart)).toHaveLength(2);
    expect(text(messages.at(-1))).toMatch(/^hotel done/);
    // The summariser saw the earlier part as context, once, and the conversation after it — not the part as a turn.
    const sent = s.asked[0]!.messages.map(text);
    expect(sent[0]).toMatch(/^Earlier parts of this conversation were already summarised/);
    expect(sent[0]).toContain("they planned a trip to Lisbon");
    expect(sent.filter((t) => t.includes("they planned a trip to Lisbon"))).toHaveLength(1);
    expect(sent[1]).toMatch(/^book the flight/);
    expect(sent.at(-1)).toBe("Write the summary of what followed them now.");
  });

  it("parts alone before the tail are nothing to compact: they are never summarised again", async () => {
    const transcript = [part("one"), part("two"), userMessage(`recent ${big(1_500)}`)];
    expect(findCompactionCut(transcript, 1_000)).toBe(0);
    const outcome = await summarizeOlderMessages(summariser("unused").request(transcript));
    expect(outcome).toMatchObject({ ok: false, error: "nothing old enough to summarise" });
  });

  it("parts that together pass keepRecentTokens are folded into one by the next compaction (a long session still fits)", async () => {
    const transcript = [
      part(`one ${big(600)}`),
      part(`two ${big(600)}`),
      userMessage(`more ${big(300)}`),
      userMessage(`recent ${big(1_100)}`),
    ];
    const s = summariser("everything so far");
    const outcome = await summarizeOlderMessages(s.request(transcript));
    const messages = outcome.ok ? outcome.messages : [];
    expect(messages.filter(isCompactionPart).map(text)).toEqual([`${SUMMARY_PREFIX}everything so far`]);
    // Folded: the old parts went to the summariser as conversation to summarise, not as kept context.
    expect(s.asked[0]!.messages.map(text).at(-1)).toBe("Write the summary now.");
    expect(s.asked[0]!.messages.map(text)[0]).toMatch(/^Summary of the earlier conversation/);
  });

  it("a first compaction works as before: one part, the prompt without earlier summaries", async () => {
    const transcript = [
      userMessage(`hello ${big(800)}`),
      assistantText(`hi ${big(800)}`),
      userMessage(`more ${big(1_200)}`),
    ];
    const s = summariser("greetings");
    const outcome = await summarizeOlderMessages(s.request(transcript));
    const messages = outcome.ok ? outcome.messages : [];
    expect(messages.map(text)[0]).toBe(`${SUMMARY_PREFIX}greetings`);
    expect(messages.filter(isCompactionPart)).toHaveLength(1);
    expect(s.asked[0]!.messages.map(text).at(-1)).toBe("Write the summary now.");
  });
});
