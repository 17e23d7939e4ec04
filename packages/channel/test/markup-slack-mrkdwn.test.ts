import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertMarkdown } from "../src/index.js";

const toMrkdwn = (markdown: string): string => convertMarkdown(markdown, "slack-mrkdwn");

describe("Markdown → Slack mrkdwn", () => {
  it("uses Slack's single-character markers and <url|text> links", () => {
    expect(toMrkdwn("**b** *i* _j_ ~~s~~ `c`")).toBe("*b* _i_ _j_ ~s~ `c`");
    expect(toMrkdwn("[the docs](https://e.com/a|b)")).toBe("<https://e.com/a%7Cb|the docs>");
    expect(toMrkdwn("see https://e.com/x.")).toBe("see <https://e.com/x>.");
    expect(toMrkdwn("# Title")).toBe("*Title*");
    expect(toMrkdwn("1. one\n2. two")).toBe("1. one\n2. two");
    expect(toMrkdwn("> a\n>\n> b")).toBe("> a\n>\n> b");
  });

  it("escapes &, < and > so user text cannot inject links or mentions", () => {
    expect(toMrkdwn("<script> &amp; <!channel> <@U123>")).toBe(
      "&lt;script&gt; &amp;amp; &lt;!channel&gt; &lt;@U123&gt;",
    );
    expect(toMrkdwn("[a <b> & c](https://e.com)")).toBe("<https://e.com|a &lt;b&gt; &amp; c>");
  });

  it("leaves unbalanced markers alone", () => {
    expect(toMrkdwn("a * b and *c")).toBe("a * b and *c");
  });

  it("keeps code blocks unformatted but escaped, dropping the language Slack cannot show", () => {
    expect(toMrkdwn("```js\nif (a < b && *c*) {}\n```")).toBe("```\nif (a &lt; b &amp;&amp; *c*) {}\n```");
  });

  it("never leaves a raw < or > outside a link, whatever the input", () => {
    const nasty = fc.string({
      unit: fc.constantFrom("<", ">", "&", "*", "_", "~", "`", "[", "]", "(", ")", "\n", " ", "h", "ttps://x", "|"),
      maxLength: 60,
    });
    fc.assert(
      fc.property(nasty, (markdown) => {
        const outside = toMrkdwn(markdown)
          .replace(/<(?:https?|mailto):[^<>|\s]+(?:\|[^<>]*)?>/g, "")
          .replace(/^(?:>(?: |$))+/gm, ""); // quote markers at the start of a line are Slack syntax
        expect(outside).not.toMatch(/[<>]/);
        expect(outside.replace(/&(amp|lt|gt);/g, "")).not.toContain("&");
      }),
    );
  });
});
