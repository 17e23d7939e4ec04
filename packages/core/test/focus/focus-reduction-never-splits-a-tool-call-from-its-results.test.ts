import { describe, expect, it } from "vitest";
import { FOCUS_KNOWLEDGE_PREFIX, type FocusSegment, reduceFocusSegments } from "../../src/index.js";
import { assistantToolCalls, toolResult, userMessage } from "../../src/testing/index.js";
import { outline } from "./support.js";

const segment: FocusSegment = { id: 1, scope: "s", knowledge: "k", startCallId: "s1", endCallId: "c1" };

describe("the focus reduction never splits a tool call from its results", () => {
  it("takes whole messages: sibling calls of start_focus and complete_focus go with their results", () => {
    const messages = [
      userMessage("go"),
      assistantToolCalls([
        { name: "read", id: "before" },
        { name: "start_focus", id: "s1" },
      ]),
      toolResult("before", "read", "early"),
      toolResult("s1", "start_focus", "started"),
      assistantToolCalls([{ name: "read", id: "r1" }]),
      toolResult("r1", "read", "raw"),
      assistantToolCalls([
        { name: "complete_focus", id: "c1" },
        { name: "read", id: "after" },
      ]),
      toolResult("c1", "complete_focus", "done"),
      toolResult("after", "read", "late"),
      userMessage("next"),
    ];
    const reduced = reduceFocusSegments(messages, [segment]).messages ?? [];
    expect(outline(reduced)).toEqual(["user: go", `user: ${FOCUS_KNOWLEDGE_PREFIX}1] s`, "user: next"]);
    expect(reduceFocusSegments(reduced, [segment]).messages).toBeUndefined(); // idempotent
  });

  it("rewrites a placed knowledge message after a merge, removes a merged-away one, and reports vanished segments", () => {
    const messages = [userMessage("a"), userMessage(`${FOCUS_KNOWLEDGE_PREFIX}1] s\nold`), userMessage("b")];
    const merged = reduceFocusSegments(messages, [{ ...segment, mergedInto: 2 }]);
    expect(outline(merged.messages ?? [])).toEqual(["user: a", "user: b"]);
    const rewritten = reduceFocusSegments(messages, [{ ...segment, knowledge: "new" }]);
    expect(JSON.stringify(rewritten.messages)).toContain("new");
    const gone = reduceFocusSegments([userMessage("a")], [segment]);
    expect(gone.messages).toBeUndefined();
    expect([...gone.absent]).toEqual([1]);
  });
});
