/**
 * Removes the bot's mention when it opens the message ("@bot /agents" → "/agents"), so commands and prompts
 * read the same with or without the mention.
 * Contract: only a leading occurrence of one of `mentions` (followed by whitespace, ":" / "," or the end) is removed.
 */
export function stripLeadingMention(text: string, mentions: readonly string[]): string {
  const trimmed = text.trimStart();
  for (const mention of mentions) {
    if (mention.length === 0 || !trimmed.toLowerCase().startsWith(mention.toLowerCase())) continue;
    const rest = trimmed.slice(mention.length);
    if (rest.length === 0 || /^[\s:,]/.test(rest)) return rest.replace(/^[:,]?\s*/, "");
  }
  return text;
}
