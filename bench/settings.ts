/* What every part of the bench shares: where the database is, how long and how wide each load runs, and how the measured server starts. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateApiKey } from "@directory/api";
import { startAndWait } from "./processes";

export const root = fileURLToPath(new URL("..", import.meta.url));
// `node --import tsx` keeps the server in one process, so its pid is the one whose memory we read.
export const node = process.execPath;
export const withTsx = (script: string) => ["--import", "tsx", join(root, script)];
/** The service runs as in production: node on the esbuild bundle (run.ts builds it first when stale). */
export const builtServer = [...(process.env.BENCH_SERVER_FLAGS?.split(" ").filter(Boolean) ?? []), join(root, "apps/server/dist/main.js")];
export const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench";
export const worldSize = Number(process.env.BENCH_BUSINESSES ?? 1_000_000);
export const seconds = Number(process.env.BENCH_SECONDS ?? 15);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const adminKey = generateApiKey("admin");

export function serverEnv(port: number, url = databaseUrl): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: url,
    PORT: String(port),
    HOST: "127.0.0.1",
    DEMO_SEED: "off",
    LOG_LEVEL: "info",
    // The load runs far past the spec's limits on purpose; the limiter itself stays on the path.
    ANON_DAILY_LIMIT: "100000000",
    ANON_MINUTE_LIMIT: "100000000",
    KEY_MONTHLY_LIMIT: "100000000",
    ADMIN_API_KEY: adminKey,
  };
}

/** The built server on this port (on the bench database, or the one at `url`), once healthy. */
export function startServer(port: number, url = databaseUrl): ReturnType<typeof startAndWait> {
  return startAndWait(node, builtServer, serverEnv(port, url), `http://127.0.0.1:${port}/healthz`, 60_000);
}
