/** Keys whose values are data (example bodies, defaults), not Markdown to render. */
const DATA_KEYS = new Set(["value", "example", "default", "enum", "const", "pattern"]);

/**
 * OpenAPI descriptions are CommonMark, which reads <key> as an HTML tag: Swagger UI drops it and
 * shows "Bearer ." for "Bearer <key>". Every run of text holding such a placeholder becomes a code
 * span (unless it already is one), so it reads the same as plain text and as rendered Markdown.
 */
export function placeholdersAsCode<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => placeholdersAsCode(item)) as T;
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (DATA_KEYS.has(key)) return [key, value];
      if ((key === "description" || key === "summary") && typeof value === "string") return [key, markdownPlaceholders(value)];
      return [key, placeholdersAsCode(value)];
    }),
  ) as T;
}

function markdownPlaceholders(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[^\s`]*<[^<>\s]+>[^\s`]*?(?=[.,;:)]*(?:\s|$))/g, (run) => `\`${run}\``)))
    .join("");
}
