/**
 * The rows of a `db.execute(sql...)` result: postgres-js returns them as the result itself, PGlite
 * as `{ rows }`. Every raw query reads its rows through this, on either driver.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
