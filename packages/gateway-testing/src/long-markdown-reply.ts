/**
 * A Markdown reply of about `length` characters: numbered paragraphs of prose with some formatting, a list and a
 * code block, ending in "the end" — enough structure for the chunker to choose among breaks.
 */
export function longMarkdownReply(length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < length - 40; n++) {
    const paragraph =
      n % 7 === 0
        ? `\`\`\`ts\nconst step${n} = ${n};\nconsole.log(step${n} * 2);\n\`\`\``
        : n % 5 === 0
          ? `- item ${n}.a with **bold** text\n- item ${n}.b with _emphasis_`
          : `This is paragraph ${n} of a long answer. It has several sentences, some *emphasis* and a link-free tail.`;
    parts.push(paragraph);
    size += paragraph.length + 2;
  }
  parts.push("And that is the end.");
  return parts.join("\n\n");
}
