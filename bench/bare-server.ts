/**
 * The baseline for the search target: node:http running the very same service function (so the
 * very same SQL) with no express, tRPC, zod, logging or OpenAPI in between.
 */
import { createServer } from "node:http";
import { createDatabase } from "@directory/db";
import { searchCategory } from "@directory/api";

const database = await createDatabase({ url: process.env.DATABASE_URL ?? "", maxConnections: 10 });
const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://bare");
  const result = await searchCategory(database.db, {
    category: url.searchParams.get("category") ?? "",
    city: url.searchParams.get("city") ?? "",
    limit: Number(url.searchParams.get("limit") ?? 5),
  });
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ businesses: result.businesses, total: result.businesses.length }));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.once("SIGTERM", () => server.close(() => void database.close().then(() => process.exit(0))));
