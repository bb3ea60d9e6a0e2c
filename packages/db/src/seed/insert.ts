import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgInsertValue, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../client";
import { businesses } from "../schema/businesses";
import { buyerQuestions } from "../schema/buyer-questions";
import { claims } from "../schema/claims";
import { offers } from "../schema/offers";
import { slugHistory } from "../schema/slug-history";
import { arrayLiteral } from "./array-literal";
import type { BatchRows } from "./batch";
import { copyRows, postgresClientOf } from "./copy-rows";
import { insertableColumns, type JsonRow, seedColumnKind } from "./rows";

/** PostgreSQL allows 65,535 bind parameters per statement; stay well below it. */
const PARAMETERS_PER_STATEMENT = 60_000;
/** Caps the size of one JSON parameter (~1.5 MB of claims) so no statement gets huge. */
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

interface ColumnCodec {
  key: string;
  /** SQL reading the value from `e`, the row's JSON array, at its position. */
  select: SQL;
  /** Converts the generated value to what `select` expects. */
  encode?: (value: unknown) => unknown;
}

/** How each insertable column is read from the row's JSON array. */
function columnCodecs(table: PgTable): ColumnCodec[] {
  return insertableColumns(table).map(([key, column], position) => {
    const text = sql`(e->>${sql.raw(String(position))})`;
    switch (seedColumnKind(column)) {
      case "PgTimestamp": // epoch milliseconds, see rows.ts
        return { key, select: sql`to_timestamp(${text}::float8 / 1000.0)` };
      case "PgJsonb": // taken as jsonb as it is, never re-parsed from text; JSON null stays a value where NULL is not allowed (copy-rows.ts)
        return column.notNull
          ? { key, select: sql`e->${sql.raw(String(position))}` }
          : { key, select: sql`nullif(e->${sql.raw(String(position))}, 'null'::jsonb)` };
      case "PgArray":
        return { key, select: sql`${text}::${sql.raw(column.getSQLType())}`, encode: (value) => arrayLiteral(value as (string | number)[]) };
      default:
        return { key, select: sql`${text}::${sql.raw(column.getSQLType())}` };
    }
  });
}

/**
 * Multi-row insert with the rows in one JSON parameter: an array of positional arrays, expanded
 * with jsonb_array_elements. For the bulk tables `.values()` is too slow: drizzle's SQL builder
 * spends ~55 µs per claim row (measured; more than the database needs to store it), and a
 * statement needs 10 parameters per claim. Positional arrays are a third smaller than objects and
 * ~20% faster to insert than json_to_recordset (measured on PGlite).
 */
export async function insertAsJson<TTable extends PgTable>(db: Db, table: TTable, rows: readonly JsonRow<TTable>[]): Promise<void> {
  const codecs = columnCodecs(table);
  const selectList = sql.join(
    codecs.map((codec) => codec.select),
    sql`, `,
  );
  for (let start = 0; start < rows.length; start += ROWS_PER_JSON_STATEMENT) {
    const tuples = rows
      .slice(start, start + ROWS_PER_JSON_STATEMENT)
      .map((row: Record<string, unknown>) => codecs.map(({ key, encode }) => (encode ? encode(row[key]) : row[key])));
    const json = asciiJson(tuples);
    await db.insert(table).select(sql`select ${selectList} from jsonb_array_elements(${json}::jsonb) as e`);
  }
}

/** Writes one table's rows of a batch, the way the driver takes them best. */
type TableWriter = <TTable extends PgTable>(table: TTable, rows: readonly JsonRow<TTable>[]) => Promise<void>;

/** Parents first (foreign keys), and current claims before the superseded ones that point at them. */
async function writeBatch(rows: BatchRows, write: TableWriter): Promise<void> {
  await write(businesses, rows.businesses);
  await write(claims, rows.currentClaims);
  await write(claims, rows.supersededClaims);
  await write(slugHistory, rows.slugHistory);
  await write(offers, rows.offers);
  await write(buyerQuestions, rows.questions);
}

/**
 * One transaction per batch, so a failure never leaves a business without its claims. A
 * PostgreSQL server takes the rows by COPY (copy-rows.ts), PGlite as JSON.
 */
export async function insertBatch(db: Db, rows: BatchRows): Promise<void> {
  const server = postgresClientOf(db);
  if (server) await server.begin((sql) => writeBatch(rows, (table, tableRows) => copyRows(sql, table, tableRows)));
  else await db.transaction((tx) => writeBatch(rows, (table, tableRows) => insertAsJson(tx, table, tableRows)));
}
