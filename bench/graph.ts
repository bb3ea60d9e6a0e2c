/**
 * The knowledge graph route (GET /api/v2/knowledge-graph) on the BENCH_DATABASE_URL world: latency
 * per type under load (4 connections), through the whole server. A world seeded before documents
 * existed gets the demo documents first (timed). Runs alone (`pnpm exec tsx bench/graph.ts`) or as
 * a section of bench/run.ts.
 */
import { pathToFileURL } from "node:url";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { seedDemoDocuments } from "@directory/api";
import { createDatabase, documents, forChores, migrate, rowsOf } from "@directory/db";
import { runLoad } from "./load";
import { startAndWait, stop } from "./processes";

const root = fileURLToPath(new URL("..", import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 15);

export async function benchGraph(databaseUrl: string, note: (line: string) => void): Promise<void> {
  const database = await createDatabase(forChores({ url: databaseUrl }));
  let networkIds: string[];
  let complementary: { category: string; city: string }[];
  try {
    await migrate(database);
    const [stored] = await database.db.select({ n: sql<number>`count(*)::int` }).from(documents);
    if (Number(stored?.n ?? 0) === 0) {
      const started = performance.now();
      await seedDemoDocuments(database.db);
      note("");
      note(`(demo documents written into the existing world first: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
    networkIds = rowsOf<{ id: string }>(
      await database.db.execute(sql`
        select e.business_a as id from co_mention_edges e join businesses b on b.id = e.business_a
        where b.status = 'active' and (b.subscription_expires_at is null or b.subscription_expires_at > now())
        order by e.weight desc nulls last, e.business_a limit 50`),
    ).map((row) => row.id);
    complementary = rowsOf<{ category: string; city: string }>(
      await database.db.execute(sql`
        select distinct b.category_slug as category, c.name as city from documents d
        join document_mentions m on m.document_id = d.id join businesses b on b.id = m.business_id join cities c on c.id = b.city_id
        where d.kind = 'article' limit 20`),
    );
  } finally {
    await database.close();
  }
  const port = 3980;
  const app = await startAndWait(
    process.execPath,
    [join(root, "apps/server/dist/main.js")],
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      DEMO_SEED: "off",
      LOG_LEVEL: "warn",
      ANON_DAILY_LIMIT: "100000000",
      KEY_MONTHLY_LIMIT: "100000000",
    },
    `http://127.0.0.1:${port}/healthz`,
    60_000,
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    const kinds: [string, string[]][] = [
      ["statistics (no parameters)", ["/api/v2/knowledge-graph"]],
      ["type=network (50 businesses with edges)", networkIds.map((id) => `/api/v2/knowledge-graph?type=network&businessId=${id}`)],
      [
        "type=complementary (20 category+city pairs)",
        complementary.map((p) => `/api/v2/knowledge-graph?${new URLSearchParams({ type: "complementary", category: p.category, city: p.city })}`),
      ],
      ["type=top_pairs", ["/api/v2/knowledge-graph?type=top_pairs"]],
    ];
    note("");
    note("## Knowledge graph (GET /api/v2/knowledge-graph; 4 connections)");
    note("");
    note("| type | req/s | p50 ms | p90 ms | p99 ms | failures |");
    note("|---|---|---|---|---|---|");
    for (const [name, paths] of kinds) {
      await runLoad(base, paths, { connections: 4, seconds: 2 });
      const result = await runLoad(base, paths, { connections: 4, seconds: Math.max(3, Math.round(seconds / 3)) });
      note(`| ${name} | ${result.rps} | ${result.p50} | ${result.p90} | ${result.p99} | ${result.non2xx + result.errors} |`);
    }
  } finally {
    await stop(app.child);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await benchGraph(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench", (line) => console.log(line));
  process.exit(0);
}
