/*
 * Category + city search through the built server's REST door, side by side with the machine's
 * limit (bare-server.ts: the same SQL without the HTTP stack) on the same paths.
 */
import { memoryOf } from "./feed";
import { runLoad, type LoadResult } from "./load";
import { startAndWait, stop } from "./processes";
import { connections, databaseUrl, node, seconds, startServer, withTsx } from "./settings";
import type { SearchPaths } from "./world";

function row(name: string, r: LoadResult): string {
  return `| ${name} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.requests} | ${r.non2xx + r.errors} |`;
}

/** The paths whose answer fills all 10 places. */
async function filledPaths(baseUrl: string, paths: string[]): Promise<string[]> {
  const filled: string[] = [];
  for (const path of paths) {
    const body = (await (await fetch(`${baseUrl}${path}`)).json()) as { businesses?: unknown[] };
    if (body.businesses?.length === 10) filled.push(path);
  }
  return filled;
}

/** The bare limit server (bare-server.ts) on this port and database, once it answers `probePath`. */
export function startLimitServer(port: number, url: string, probePath: string): ReturnType<typeof startAndWait> {
  return startAndWait(node, withTsx("bench/bare-server.ts"), { DATABASE_URL: url, PORT: String(port) }, `http://127.0.0.1:${port}${probePath}`, 60_000);
}

/** The service and the bare limit server side by side on one set of paths, warmed alike. */
export async function loadBesideLimit(service: string, bare: string, paths: string[]): Promise<{ ours: LoadResult; limit: LoadResult }> {
  await runLoad(service, paths, { connections, seconds: 3 });
  await runLoad(bare, paths, { connections, seconds: 3 });
  const ours = await runLoad(service, paths, { connections, seconds });
  const limit = await runLoad(bare, paths, { connections, seconds });
  return { ours, limit };
}

async function searchRows(note: (line: string) => void, title: string, service: string, bare: string, paths: string[]): Promise<void> {
  const { ours, limit } = await loadBesideLimit(service, bare, paths);
  note("");
  note(title);
  note("");
  note("| server | req/s | p50 ms | p90 ms | p99 ms | requests | failures |");
  note("|---|---|---|---|---|---|---|");
  note(row("directory service (node dist/main.js: express + tRPC-OpenAPI + zod + pino)", ours));
  note(row("limit: bare node:http + postgres-js, in-memory category/city, one prepared statement, JSON.stringify", limit));
  note("");
  note(`**Throughput ratio service/limit: ${((ours.rps / limit.rps) * 100).toFixed(1)}%** (target >= 50%); p99 ${ours.p99} ms (target < 20 ms).`);
}

export async function benchSearch(paths: SearchPaths, note: (line: string) => void): Promise<void> {
  const port = 3900 + Math.floor(Math.random() * 50);
  const app = await startServer(port);
  const barePort = port + 100;
  const bare = await startLimitServer(barePort, databaseUrl, paths.mix[0]!);
  try {
    const service = `http://127.0.0.1:${port}`;
    const limit = `http://127.0.0.1:${barePort}`;
    const idle = memoryOf(app.child.pid ?? 0);
    await searchRows(
      note,
      "## Category + city search (GET /api/assistant-plugin, limit 10; mix: 10 popular categories x 20 largest cities)",
      service,
      limit,
      paths.mix,
    );
    const heavy = await filledPaths(limit, paths.heavy);
    await searchRows(
      note,
      `## Category + city search, heavy pairs: the 5 most popular categories x 8 largest cities whose answers fill all 10 places (${heavy.length} of ${paths.heavy.length} pairs)`,
      service,
      limit,
      heavy,
    );
    note("");
    note(`- Service memory on PostgreSQL: ${idle.rssMb} MB resident when ready, ${memoryOf(app.child.pid ?? 0).peakMb} MB peak after both loads`);
  } finally {
    await stop(app.child);
    await stop(bare.child);
  }
}
