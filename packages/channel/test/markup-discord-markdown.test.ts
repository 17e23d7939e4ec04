import { describe, expect, it } from "vitest";
import { convertMarkdown } from "../src/index.js";

const toDiscord = (markdown: string): string => convertMarkdown(markdown, "discord-md");

describe("Markdown → Discord markdown", () => {
  it("passes ordinary formatting through", () => {
    expect(toDiscord("**b** *i* ~~s~~ `c` [t](https://e.com)")).toBe("**b** *i* ~~s~~ `c` [t](https://e.com)");
    expect(toDiscord("```py\nprint(1)\n```")).toBe("```py\nprint(1)\n```");
    expect(toDiscord("## Two\n\n#### Four")).toBe("## Two\n\n**Four**");
  });

  it("escapes literal characters that Discord would treat as formatting", () => {
    expect(toDiscord("2 * 3 and *oops, a_b, ||spoiler||")).toBe("2 \\* 3 and \\*oops, a\\_b, \\|\\|spoiler\\|\\|");
    expect(toDiscord("\\# not a heading")).toBe("\\# not a heading");
  });

  it("defuses @everyone and @here", () => {
    expect(toDiscord("hey @everyone and @here")).not.toMatch(/@everyone|@here/);
  });

  it("keeps bare URLs intact (no escapes inside them)", () => {
    expect(toDiscord("see https://e.com/a_b*c")).toBe("see https://e.com/a_b*c");
  });

  it("never converts markup inside code, and a fence inside code cannot end the block", () => {
    expect(toDiscord("```\n**x** ```\n```")).toBe("```\n**x** `\u200b``\n```");
    expect(toDiscord("`a*b*c`")).toBe("`a*b*c`");
  });

  it("shows <script> literally (Discord does not render HTML)", () => {
    expect(toDiscord("<script>x</script> &amp;")).toBe("<script>x</script> &amp;");
  });
});
