import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { partnerFeedPage } from "../../test-callers";
import type { PartnerFeedPageParams } from "./partner-feed";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

interface Statement {
  text: string;
  params: unknown[];
}

/** The driver client under the drizzle handle: PGlite's (query) or postgres-js's (unsafe), both what production calls. */
type DriverClient = Record<"query" | "unsafe", ((text: string, params?: unknown[], ...rest: unknown[]) => unknown) | undefined>;

/**
 * The statements production sends while it serves a feed page: the driver's own methods, wrapped
 * for the call, record each text and its parameters. Whatever the feed builds its queries with,
 * these are the plans PostgreSQL and PGlite are asked to run.
 */
async function statementsSentBy(serve: () => Promise<unknown>): Promise<Statement[]> {
  const client = (database.db as unknown as { session: { client: DriverClient } }).session.client;
  const sent: Statement[] = [];
  const originals = { query: client.query, unsafe: client.unsafe };
  for (const method of ["query", "unsafe"] as const) {
    const original = originals[method];
    if (typeof original !== "function") continue;
    client[method] = function (this: unknown, text: string, params?: unknown[], ...rest: unknown[]) {
      sent.push({ text, params: params ?? [] });
      return original.call(this, text, params, ...rest);
    };
  }
  try {
    await serve();
  } finally {
    client.query = originals.query;
    client.unsafe = originals.unsafe;
  }
  return sent;
}

/** The plan of a sent statement with scans of the whole table ruled out: what an index alone can answer. */
async function indexPlan({ text, params }: Statement): Promise<string> {
  const literal = (value: unknown): string => {
    if (value === null) return "null";
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    const text = value instanceof Date ? value.toISOString() : typeof value === "string" ? value : JSON.stringify(value);
    return `'${text.replace(/'/g, "''")}'`;
  };
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain ${inlined}`)));
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

const FIRST_PAGE: PartnerFeedPageParams = { limit: 500, offset: 0, baseUrl: "http://localhost:3000" };

/** The statements of those sent that read businesses and match `shape` (at least one). */
function sentStatements(statements: Statement[], shape: RegExp): Statement[] {
  const matching = statements.filter((statement) => /\bfrom\s+"?businesses"?/i.test(statement.text) && shape.test(statement.text));
  expect(matching.length).toBeGreaterThan(0);
  return matching;
}

describe("the partner feed reads its index alone (migration 0026)", () => {
  it("sends one statement for a cursor's page once its signing key is held: no read of the key per page", async () => {
    const { nextCursor } = await partnerFeedPage(database.db, { ...FIRST_PAGE, limit: 2 });
    const next = await statementsSentBy(() => partnerFeedPage(database.db, { ...FIRST_PAGE, limit: 2, cursor: nextCursor! }));
    expect(next).toHaveLength(1);
    expect(next[0]!.text).not.toMatch(/service_secrets/);
  });

  it("counts a traversal's locations with an index-only scan of businesses_feed_idx", async () => {
    const statements = await statementsSentBy(() => partnerFeedPage(database.db, FIRST_PAGE));
    for (const statement of sentStatements(statements, /\bcount\(/i)) expect(await indexPlan(statement)).toContain("Index Only Scan using businesses_feed_idx");
  });

  it("chooses a page's rows in (updated_at, id) order with an index-only scan, no sort: the first page and a cursor's next", async () => {
    let nextCursor: string | null = null;
    const first = await statementsSentBy(async () => {
      nextCursor = (await partnerFeedPage(database.db, { ...FIRST_PAGE, limit: 2 })).nextCursor;
    });
    expect(nextCursor).not.toBeNull();
    const next = await statementsSentBy(() => partnerFeedPage(database.db, { ...FIRST_PAGE, limit: 3, cursor: nextCursor! }));
    expect(next.some((statement) => /feed_documents/.test(statement.text) && /\) > \(timestamptz 'epoch'/.test(statement.text))).toBe(true);
    for (const statement of [...sentStatements(first, /feed_documents/), ...sentStatements(next, /feed_documents/)]) {
      const plan = await indexPlan(statement);
      expect(plan).toContain("Index Only Scan using businesses_feed_idx");
      expect(plan).not.toMatch(/\bSort\b/);
    }
  });
});
