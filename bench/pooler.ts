/* What running behind PgBouncer in transaction mode costs: the built server's keyword and category searches, directly and through a real PgBouncer (docs/operations.md, "Behind a connection pooler"). */
import { startPgBouncer } from "@directory/db/testing-pgbouncer";
import { keywordPaths as keywordSearchPaths } from "./keyword";
import { runLoad, type LoadResult } from "./load";
import { startAndWait, stop } from "./processes";
import { builtServer, connections, databaseUrl, node, seconds, serverEnv } from "./settings";
import type { SearchPaths } from "./world";

/** Each variant runs once per round, rounds interleaved, so load from elsewhere on the machine falls on all of them alike. */
const ROUNDS = 3;

/** Server connections PgBouncer keeps: as many as the server's own pool, so the rows measure the hop and the unnamed statements, not a queue. */
const POOL_SIZE = 10;

/**
 * Three servers in turn on the same world: as today (direct, prepared statements); direct with
 * DATABASE_POOLER=transaction (unnamed statements, parsed and planned each time, without the extra
 * hop); and through PgBouncer 1.18 in transaction mode. Each answers the keyword search
 * (tRPC search.searchKeyword) and the category + city search mix under the same load.
 */
export async function benchPooler(paths: SearchPaths, note: (line: string) => void): Promise<void> {
  const pooler = await startPgBouncer(databaseUrl, { poolSize: POOL_SIZE, statementTimeoutMs: 3_000 });
  const keywordPaths = keywordSearchPaths();
  const variants: { name: string; env: NodeJS.ProcessEnv }[] = [
    { name: "direct, prepared statements (DATABASE_POOLER unset)", env: {} },
    {
      name: "direct, unnamed statements (DATABASE_POOLER=transaction on the direct URL)",
      env: { DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: databaseUrl },
    },
    {
      name: `through PgBouncer 1.18, pool_mode = transaction, pool_size ${POOL_SIZE}`,
      env: { DATABASE_URL: pooler.url, DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: databaseUrl },
    },
  ];
  const runs = variants.map(() => ({ keyword: [] as LoadResult[], category: [] as LoadResult[] }));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, variant] of variants.entries()) {
        const port = 3995;
        const app = await startAndWait(node, builtServer, { ...serverEnv(port), ...variant.env }, `http://127.0.0.1:${port}/healthz`, 60_000);
        try {
          const baseUrl = `http://127.0.0.1:${port}`;
          await runLoad(baseUrl, [...keywordPaths, ...paths.mix], { connections, seconds: 2 });
          runs[index]!.keyword.push(await runLoad(baseUrl, keywordPaths, { connections, seconds }));
          runs[index]!.category.push(await runLoad(baseUrl, paths.mix, { connections, seconds }));
        } finally {
          await stop(app.child);
        }
      }
    }
  } finally {
    await pooler.stop();
  }
  note("");
  note(
    `## Behind a connection pooler (PgBouncer 1.18 in transaction mode; ${connections} connections, ${seconds} s per run, ${ROUNDS} interleaved rounds: medians, each round's p95 in brackets)`,
  );
  note("");
  note("| server | keyword search req/s, p50 / p95 ms [p95 by round], failures | category + city search req/s, p50 / p95 ms [p95 by round], failures |");
  note("|---|---|---|");
  for (const [index, variant] of variants.entries()) note(`| ${variant.name} | ${cells(runs[index]!.keyword)} | ${cells(runs[index]!.category)} |`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function cells(results: LoadResult[]): string {
  const failures = results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
  const p95s = results.map((result) => result.p95);
  return `${median(results.map((result) => result.rps))} req/s, ${median(results.map((result) => result.p50))} / **${median(p95s)}** ms [${p95s.join(", ")}], ${failures}`;
}
