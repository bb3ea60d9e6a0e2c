/**
 * The partnerfeed part alone, on a server run from source (node --import tsx), for when the bundle
 * cannot be built or a full `pnpm bench` is not wanted. Seeds BENCH_DATABASE_URL if it is empty.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/directory_bench BENCH_BUSINESSES=1000000 npx tsx bench/partner-feed-standalone.ts
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { generateApiKey, isDatabaseEmpty, seedDemoWorld } from "@directory/api";
import { createDatabase, forChores, migrate } from "@directory/db";
import { benchPartnerFeed, preparePartnerFeed } from "./partner-feed";
import { startAndWait, stop } from "./processes";

const root = fileURLToPath(new URL("..", import.meta.url));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench";
const worldSize = Number(process.env.BENCH_BUSINESSES ?? 1_000_000);
const note = (line: string) => console.log(line);

const url = new URL(databaseUrl);
const name = url.pathname.slice(1);
url.pathname = "/postgres";
const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
if ((await admin`select 1 from pg_database where datname = ${name}`).length === 0) await admin.unsafe(`create database "${name}"`);
await admin.end();

const database = await createDatabase(forChores({ url: databaseUrl }));
await migrate(database);
if (await isDatabaseEmpty(database.db)) {
  const started = performance.now();
  await seedDemoWorld(database.db, { businesses: worldSize });
  note(`- Seed: ${worldSize.toLocaleString("en")} businesses in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
await database.close();
await preparePartnerFeed(databaseUrl, note);

const port = 3991;
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(port),
  HOST: "127.0.0.1",
  DEMO_SEED: "off",
  LOG_LEVEL: "warn",
  KEY_MONTHLY_LIMIT: "100000000",
  ADMIN_API_KEY: generateApiKey("admin"),
};
const app = await startAndWait(process.execPath, ["--import", "tsx", join(root, "apps/server/src/main.ts")], env, `http://127.0.0.1:${port}/healthz`, 120_000);
try {
  await benchPartnerFeed(databaseUrl, `http://127.0.0.1:${port}`, app.child.pid ?? 0, note);
} finally {
  await stop(app.child);
}
process.exit(0);
