import { getTableColumns } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { businesses } from "../schema/businesses";
import type { buyerQuestions } from "../schema/buyer-questions";
import type { claims } from "../schema/claims";
import type { offers } from "../schema/offers";
import type { slugHistory } from "../schema/slug-history";

/** Dates travel as epoch milliseconds: JSON.stringify calls Date#toJSON per value, which is slow. */
type JsonValue<T> = T extends Date ? number : T;

/**
 * A generated row as it is sent to the database (see insertAsJson): every column is required,
 * since a database default such as now() would make two seeds differ.
 */
export type JsonRow<TTable extends PgTable> = {
  [K in keyof TTable["$inferInsert"]]-?: JsonValue<Exclude<TTable["$inferInsert"][K], undefined>>;
};

export type BusinessRow = JsonRow<typeof businesses>;
export type ClaimRow = JsonRow<typeof claims>;
export type OfferRow = JsonRow<typeof offers>;
export type BuyerQuestionRow = JsonRow<typeof buyerQuestions>;
export type SlugHistoryRow = JsonRow<typeof slugHistory>;

/** The columns a generated row is sent for: generated columns are computed by the database, never sent. */
export function insertableColumns(table: PgTable): [string, PgColumn][] {
  return Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated);
}

/**
 * The column's kind as the seed encodes it: drizzle's columnType, except that any jsonb column
 * (claims.value is a custom type over jsonb) is "PgJsonb".
 */
export function seedColumnKind(column: PgColumn): string {
  return column.getSQLType() === "jsonb" ? "PgJsonb" : column.columnType;
}
