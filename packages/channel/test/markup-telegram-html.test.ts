import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertMarkdown } from "../src/index.js";

const ALLOWED_TAGS = new Set(["b", "i", "s", "code", "pre", "a", "blockquote"]);
const toHtml = (markdown: string): string => convertMarkdown(markdown, "telegram-html");

/** Checks the string is HTML Telegram accepts: known tags, properly nested, nothing unescaped. */
function assertTelegramSafe(html: string): void {
  const stack: string[] = [];
  const text = html.replace(/<(\/?)([a-z]+)(?: (?:href|class)="[^"<>]*")?>/g, (_tag, closing: string, name: string) => {
    expect(ALLOWED_TAGS.has(name), `tag <${name}> is not allowed`).toBe(true);
    if (closing) expect(stack.pop()).toBe(name);
    else {
      expect(name === "blockquote" && stack.includes(name), "nested blockquote").toBe(false);
      stack.push(name);
    }
    return "";
  });
  expect(stack).toEqual([]);
  expect(text).not.toMatch(/[<>]/);
  expect(text.replace(/&(amp|lt|gt|quot);/g, "")).not.toContain("&");
}

describe("Markdown → Telegram HTML", () => {
  it("formats bold, italic, strike, code, links and headings with Telegram's tags", () => {
    expect(toHtml("**b** *i* ~~s~~ `c` [t](https://e.com/?a=1&b=2)")).toBe(
      '<b>b</b> <i>i</i> <s>s</s> <code>c</code> <a href="https://e.com/?a=1&amp;b=2">t</a>',
    );
    expect(toHtml("## Heading *x*")).toBe("<b>Heading <i>x</i></b>");
    expect(toHtml("- a\n- b")).toBe("• a\n• b");
    expect(toHtml("> quoted\n> lines")).toBe("<blockquote>quoted\nlines</blockquote>");
    expect(toHtml("> outer\n> > inner")).toBe("<blockquote>outer\ninner</blockquote>"); // Telegram cannot nest them
  });

  it("shows user text containing <script> and &amp; literally", () => {
    expect(toHtml("<script>alert('x')</script> &amp; & <b>")).toBe(
      "&lt;script&gt;alert('x')&lt;/script&gt; &amp;amp; &amp; &lt;b&gt;",
    );
  });

  it("leaves unbalanced asterisks as text", () => {
    expect(toHtml("2 * 3 = 6, and *oops")).toBe("2 * 3 = 6, and *oops");
    expect(toHtml("**never closed")).toBe("**never closed");
  });

  it("never converts markup inside code blocks, only escapes it", () => {
    expect(toHtml("```html\n<b>**not bold**</b> & [x](y)\n```")).toBe(
      '<pre><code class="language-html">&lt;b&gt;**not bold**&lt;/b&gt; &amp; [x](y)</code></pre>',
    );
    expect(toHtml("`**x** <i>`")).toBe("<code>**x** &lt;i&gt;</code>");
  });

  it("does not make javascript: links clickable and escapes quotes in hrefs", () => {
    expect(toHtml("[click](javascript:alert(1))")).toBe("click (javascript:alert(1))");
    expect(toHtml('[q](https://e.com/"x")')).toBe('<a href="https://e.com/&quot;x&quot;">q</a>');
  });

  it("always produces HTML Telegram accepts, whatever the input", () => {
    const nasty = fc.string({
      unit: fc.constantFrom(
        "<",
        ">",
        "&",
        "*",
        "_",
        "~",
        "`",
        "[",
        "]",
        "(",
        ")",
        "\n",
        " ",
        "#",
        "-",
        "> ",
        "a",
        "é",
        '[l](https://e.com?a=1&b="2")',
        "\n```js\n",
      ),
      maxLength: 80,
    });
    fc.assert(
      fc.property(nasty, (markdown) => assertTelegramSafe(toHtml(markdown))),
      { numRuns: 500 },
    );
  });
});
