import { sql, type SQL } from "drizzle-orm";

/**
 * A list of values as one bound parameter, for `= any(...)` in set-based statements: one
 * parameter whatever the batch size (a statement takes at most 65,535), and values travel as JSON,
 * so no character inside them (a comma, a brace, a quote) can change how the list is read.
 */
export function textList(values: readonly string[]): SQL {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

export function uuidList(values: readonly string[]): SQL {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)::uuid)`;
}

export function intList(values: readonly number[]): SQL {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)::int)`;
}
