/** Removes accents so "São Paulo" can be searched and slugged as "sao paulo". */
export function asciiFold(text: string): string {
  // Most generated names are plain ASCII already; Unicode normalisation is the costly part.
  if (!/[\u0080-\uffff]/.test(text)) return text;
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[’‘`]/g, "'")
    .replace(/ß/g, "ss")
    .replace(/[Łł]/g, (l) => (l === "Ł" ? "L" : "l"))
    .replace(/[Øø]/g, (o) => (o === "Ø" ? "O" : "o"));
}

/** URL segment: lower-case ASCII words joined by single hyphens ("Kumar & Sons" -> "kumar-sons"). */
export function kebab(text: string): string {
  return asciiFold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b and c": keeps generated sentences readable. */
export function listSentence(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? "an" : "a";
}

/**
 * The form search queries are compared in (lower-case, accents folded, hyphens and dots as
 * spaces), so stored aliases match what the resolver looks up.
 */
export function searchForm(text: string): string {
  return asciiFold(text)
    .toLowerCase()
    .replace(/[-_]+/g, " ")
    .replace(/[^a-z0-9&' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
