import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import { type ExtractionMessage, extractFacts } from "../src/index.js";

const session: ExtractionMessage[] = [
  { id: "101", role: "user", text: "I just moved to Porto, and my API key is sk-proj-abcdefghijklmnopqrstuv" },
  { id: "102", role: "assistant", text: "Welcome to Porto! You should try francesinha." },
  { id: "103", role: "user", text: "I'm vegetarian, so no." },
];

function answering(json: unknown) {
  return scriptedStreamFn([typeof json === "string" ? json : JSON.stringify(json)]);
}

describe("the end-of-session extraction pass", () => {
  it("proposes the facts the user stated, each with the ids of the messages that state them", async () => {
    const streamFn = answering({
      facts: [
        { text: "The user lives in Porto", subject: "home city", sources: ["101"] },
        { text: "The user is vegetarian", subject: "diet", sources: ["103"] },
      ],
    });
    const proposals = await extractFacts(session, { streamFn, model: fakeModel() });
    expect(proposals).toEqual([
      { text: "The user lives in Porto", subject: "home city", sourceMessageIds: ["101"] },
      { text: "The user is vegetarian", subject: "diet", sourceMessageIds: ["103"] },
    ]);
    const sent = streamFn.calls[0]?.context.messages[0]?.content as string;
    expect(sent).toContain("[101] user: I just moved to Porto");
  });

  it("drops a secret, a fact with no user message behind it and an oversized one", async () => {
    const streamFn = answering({
      facts: [
        { text: "The user's API key is sk-proj-abcdefghijklmnopqrstuv", sources: ["101"] },
        { text: "The user loves francesinha", sources: ["102"] },
        { text: "The user invented something", sources: ["999"] },
        { text: "x".repeat(600), sources: ["103"] },
        { text: "The user is vegetarian", sources: ["103"] },
      ],
    });
    const proposals = await extractFacts(session, { streamFn, model: fakeModel() });
    expect(proposals.map((fact) => fact.text)).toEqual(["The user is vegetarian"]);
  });

  it("proposes nothing, without rejecting, when the model fails or answers something else", async () => {
    const failing = scriptedStreamFn([{ fault: "error", error: { kind: "server", message: "overloaded" } }]);
    expect(await extractFacts(session, { streamFn: failing, model: fakeModel() })).toEqual([]);
    expect(await extractFacts(session, { streamFn: answering("I found nothing."), model: fakeModel() })).toEqual([]);
    expect(await extractFacts(session, { streamFn: answering("{not json"), model: fakeModel() })).toEqual([]);
  });
});
