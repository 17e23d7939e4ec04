import { describe, expect, it } from "vitest";
import { describeUserStyle, detectStyle, type StyleObservation } from "../src/index.js";

describe("the style detector (seed 003 step 1)", () => {
  it("reads a short informal German message", () => {
    expect(detectStyle("hey, wie geht das? ich hab ne frage")).toEqual({
      chars: 35,
      formality: "informal",
      language: "German",
      emoji: false,
      code: false,
    });
  });

  it("reads a formal English message, emoji and code", () => {
    expect(detectStyle("Dear team, could you please tell me how the export works with this setting?")).toMatchObject({
      formality: "formal",
      language: "English",
    });
    expect(detectStyle("lol that is great 🎉")).toMatchObject({ emoji: true, formality: "informal" });
    expect(detectStyle("why does `const x = 1;` fail")).toMatchObject({ code: true });
    expect(detectStyle("   ")).toBeUndefined();
  });
});

describe("the user model's line", () => {
  const informalGerman: StyleObservation = {
    chars: 30,
    formality: "informal",
    language: "German",
    emoji: false,
    code: false,
  };

  it("says nothing from fewer than three messages, then describes the majority", () => {
    expect(describeUserStyle([informalGerman, informalGerman])).toBeUndefined();
    expect(describeUserStyle([informalGerman, informalGerman, informalGerman])).toBe(
      "This user prefers short, informal answers; writes in German.",
    );
  });

  it("describes long formal messages with code as such", () => {
    const formal: StyleObservation = { chars: 600, formality: "formal", emoji: false, code: true };
    expect(describeUserStyle([formal, formal, informalGerman])).toBe(
      "This user prefers detailed, formal answers; often shares code.",
    );
  });
});
