/** A text[] or int[] value as a PostgreSQL array literal (what `::text[]`, `::integer[]` and COPY read). */
export function arrayLiteral(items: readonly (string | number)[]): string {
  return `{${items.map((item) => (typeof item === "number" ? String(item) : `"${item.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}
