import { describe, expect, it } from "vitest";
import { convertMarkdown } from "../src/index.js";

describe("Markdown → plain text and markdown", () => {
  it("plain drops formatting, writes links out and keeps code verbatim", () => {
    expect(convertMarkdown("# T\n\n**b** [docs](https://e.com) `x*y`\n\n```\n<a> & b\n```", "plain")).toBe(
      "T\n\nb docs (https://e.com) x*y\n\n<a> & b",
    );
  });

  it("markdown passes the agent's text through untouched", () => {
    const source = "# T\n\n**b** <script> &amp;\n\n```js\nx\n```";
    expect(convertMarkdown(source, "markdown")).toBe(source);
  });
});
