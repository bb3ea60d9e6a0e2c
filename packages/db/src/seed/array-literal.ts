/** A text[] value as a PostgreSQL array literal (what `::text[]` and COPY read). */
export function arrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
}
