import { getTableColumns, sql } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../client";
import { businesses } from "../schema/businesses";
import { buyerQuestions } from "../schema/buyer-questions";
import { claims } from "../schema/claims";
import { offers } from "../schema/offers";
import { slugHistory } from "../schema/slug-history";
import type { BatchRows } from "./batch";
import type { JsonRow } from "./rows";

/** PostgreSQL allows 65,535 bind parameters per statement; stay well below it. */
const PARAMETERS_PER_STATEMENT = 60_000;
/** Caps the size of one JSON parameter (~2 MB of claims) so no statement gets huge. */
const ROWS_PER_JSON_STATEMENT = 5_000;

/** Multi-row `insert ... values`, split so no statement exceeds the parameter budget. */
export async function insertInChunks<TTable extends PgTable>(db: Db, table: TTable, rows: PgInsertValue<TTable>[]): Promise<void> {
  const columnCount = Object.keys(getTableColumns(table)).length;
  const rowsPerStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columnCount));
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    await db.insert(table).values(rows.slice(start, start + rowsPerStatement));
  }
}

/**
 * JSON with every non-ASCII character as a \uXXXX escape. One "ı" in a Turkish name otherwise turns
 * the whole parameter into a two-byte string, which PGlite measures and encodes much more slowly
 * (~30% of a claims insert, measured).
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Multi-row insert with the rows in one JSON parameter, expanded by json_to_recordset.
 * For the bulk tables `.values()` is too slow: drizzle's SQL builder spends ~55 µs per claim row
 * (measured; more than the database needs to store it), and a statement needs 10 parameters per
 * claim. Rows are serialised as they are (camelCase keys, timestamps as epoch milliseconds); the
 * record type and the conversions come from the drizzle columns.
 */
export async function insertAsJson<TTable extends PgTable>(db: Db, table: TTable, rows: readonly JsonRow<TTable>[]): Promise<void> {
  const columns = Object.entries(getTableColumns(table));
  const isTimestamp = (column: PgColumn) => column.columnType === "PgTimestamp";
  const selectList = sql.join(
    columns.map(([key, column]) =>
      isTimestamp(column) ? sql`to_timestamp(${sql.identifier(key)} / 1000.0)` : sql.identifier(key),
    ),
    sql`, `,
  );
  const recordType = sql.raw(
    columns.map(([key, column]) => `"${key}" ${isTimestamp(column) ? "double precision" : column.getSQLType()}`).join(", "),
  );
  for (let start = 0; start < rows.length; start += ROWS_PER_JSON_STATEMENT) {
    const json = asciiJson(rows.slice(start, start + ROWS_PER_JSON_STATEMENT));
    await db.insert(table).select(sql`select ${selectList} from json_to_recordset(${json}::json) as r(${recordType})`);
  }
}

/**
 * One transaction per batch, so a failure never leaves a business without its claims. Parents go
 * first (foreign keys), and current claims before the superseded ones that point at them.
 */
export async function insertBatch(db: Db, rows: BatchRows): Promise<void> {
  await db.transaction(async (tx) => {
    await insertAsJson(tx, businesses, rows.businesses);
    await insertAsJson(tx, claims, rows.currentClaims);
    await insertAsJson(tx, claims, rows.supersededClaims);
    await insertAsJson(tx, slugHistory, rows.slugHistory);
    await insertAsJson(tx, offers, rows.offers);
    await insertAsJson(tx, buyerQuestions, rows.questions);
  });
}
