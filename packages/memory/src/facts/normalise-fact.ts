/** A fact's text for duplicate detection: lower case, one space between words, no trailing punctuation. */
export function normaliseFactText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.!?;:,]+$/u, "")
    .trim();
}

/** A subject key ("Favourite  Colour" → "favourite colour"), or undefined when blank. */
export function normaliseSubject(subject: string | undefined): string | undefined {
  if (subject === undefined) return undefined;
  const key = normaliseFactText(subject).slice(0, 120);
  return key === "" ? undefined : key;
}
