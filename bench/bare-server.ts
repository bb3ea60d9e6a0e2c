/**
 * The machine's limit for the search target (issue 11): bare node:http and postgres-js, category
 * and city resolved from an in-memory map loaded at start, one prepared statement per request, the
 * same listing fields serialised with JSON.stringify. No express, tRPC, zod, logging, OpenAPI or
 * rate limiting: what is left is the database round trip and the bytes.
 */
import { createServer } from "node:http";
import { fillPlaceholders } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import postgres from "postgres";
import type { Category, City } from "@directory/db";
import { categorySearchQuery, findCategory, findCity, indexReferenceData, toListing } from "@directory/api";

const sql = postgres(process.env.DATABASE_URL ?? "", { max: 10, prepare: true, transform: postgres.camel, onnotice: () => {} });
const categoryRows = await sql<Category[]>`select * from categories order by slug`;
const cityRows = await sql<City[]>`select * from cities`;
const reference = indexReferenceData("", [...categoryRows], [...cityRows]);
// The service's own SQL text (columns, joins, servable filter, ranking order) and parameters.
const query = new PgDialect().sqlToQuery(categorySearchQuery(true));
const baseUrl = "http://127.0.0.1";

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bare");
  const category = findCategory(reference, url.searchParams.get("category") ?? "");
  const city = findCity(reference, url.searchParams.get("city") ?? "");
  if (!category || !city) {
    res.statusCode = 404;
    res.end('{"error":"unknown category or city"}');
    return;
  }
  sql
    .unsafe(
      query.sql,
      fillPlaceholders(query.params, { category: category.slug, cityId: city.id, limit: Number(url.searchParams.get("limit") ?? 5) }) as never[],
      { prepare: true },
    )
    .then((rows) => {
      const businesses = rows.map((row) => toListing(row as never, baseUrl));
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ businesses, total: businesses.length }));
    })
    .catch(() => {
      res.statusCode = 500;
      res.end();
    });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.once("SIGTERM", () => server.close(() => void sql.end().then(() => process.exit(0))));
