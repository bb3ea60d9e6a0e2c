/**
 * Webhook delivery on PostgreSQL with the in-process worker (default settings: concurrency 16,
 * LISTEN/NOTIFY wake-up, 1 s poll) and a loopback receiver answering 204 at once:
 * - latency from an outbox event's commit (the INSERT acknowledged) to its receipt, for events
 *   written one per commit at a steady rate;
 * - deliveries per second for a burst written as fast as the database takes it.
 * Uses a fresh database on the BENCH_DATABASE_URL server and drops it afterwards. Runs alone
 * (`pnpm exec tsx bench/webhooks.ts`) or as a section of bench/run.ts.
 *   BENCH_WEBHOOK_EVENTS  steady-rate events (default 2,000)   BENCH_WEBHOOK_RATE  per second (default 100)
 *   BENCH_WEBHOOK_BURST   burst events (default 5,000)
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { businesses, createDatabase, migrate, outboxEvents, webhookDeliveries, webhooks, type Db } from "@directory/db";
import { createApiKey, createSecretBox, DEFAULT_DELIVERY_SETTINGS, seedDemoWorld } from "@directory/api";
import { createLogger } from "../apps/server/src/logger";
import { startWebhookWorker } from "../apps/server/src/webhooks/worker";

const steadyEvents = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2_000);
const steadyRate = Number(process.env.BENCH_WEBHOOK_RATE ?? 100);
const burstEvents = Number(process.env.BENCH_WEBHOOK_BURST ?? 5_000);

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

async function waitFor(what: string, done: () => boolean, timeoutMs: number, refresh?: () => Promise<void>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    await refresh?.();
    if (done()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(refresh ? 50 : 5);
  }
}

/** One commit of `count` entity.updated events; returns their webhook-ids and when the commit was acknowledged. */
async function writeEvents(db: Db, owners: { id: string; slug: string }[], count: number): Promise<{ ids: string[]; committedAt: number }> {
  const now = new Date();
  const rows = Array.from({ length: count }, (_, index) => {
    const owner = owners[index % owners.length]!;
    const payload = { event: "entity.updated", businessId: owner.id, slug: owner.slug, change: "claims", properties: ["phone"], occurredAt: now.toISOString() };
    return { eventType: "entity.updated", businessId: owner.id, payload, createdAt: now };
  });
  const inserted = await db.insert(outboxEvents).values(rows).returning({ id: outboxEvents.id });
  return { ids: inserted.map((row) => `evt_${row.id}`), committedAt: performance.now() };
}

export async function benchWebhooks(serverUrl: string, note: (line: string) => void): Promise<void> {
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = "/postgres";
  const name = `directory_bench_webhooks_${randomBytes(4).toString("hex")}`;
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);

  const received = new Map<string, number>();
  let duplicates = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      if (received.has(id)) duplicates++;
      else received.set(id, performance.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  const receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;

  const writer = await createDatabase({ url: databaseUrl.toString(), maxConnections: 4 });
  const workerDatabase = await createDatabase({ url: databaseUrl.toString() });
  let worker: ReturnType<typeof startWebhookWorker> | null = null;
  try {
    await migrate(writer);
    await seedDemoWorld(writer.db, { businesses: 20 });
    const owners = await writer.db.select({ id: businesses.id, slug: businesses.slug }).from(businesses);
    const secretBox = createSecretBox(randomBytes(32));
    const { apiKey } = await createApiKey(writer.db, { kind: "developer", label: "webhook bench" });
    // Registered directly (the bench measures delivery, not the registration endpoint).
    await writer.db.insert(webhooks).values({
      id: randomUUID(),
      apiKeyId: apiKey.id,
      url: receiverUrl,
      events: ["entity.updated"],
      secretSealed: secretBox.seal(`whsec_${randomBytes(32).toString("base64")}`),
    });
    worker = startWebhookWorker({
      database: workerDatabase,
      publicBaseUrl: "http://directory.bench",
      secretBox,
      outbound: { allowLoopback: true },
      settings: DEFAULT_DELIVERY_SETTINGS,
      logger: createLogger("warn"),
    });

    // Steady rate: one event per commit, on a fixed schedule.
    const committed = new Map<string, number>();
    const intervalMs = 1000 / steadyRate;
    const steadyStart = performance.now();
    for (let index = 0; index < steadyEvents; index++) {
      const due = steadyStart + index * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const { ids, committedAt } = await writeEvents(writer.db, owners, 1);
      committed.set(ids[0]!, committedAt);
    }
    const writeSeconds = (performance.now() - steadyStart) / 1000;
    await waitFor("the steady-rate events", () => [...committed.keys()].every((id) => received.has(id)), 60_000);
    const latencies = [...committed].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b);
    const over = (ms: number) => latencies.filter((latency) => latency > ms).length;

    // Burst: commits of 500 as fast as they go, timed from the first write to the last receipt.
    const burstStart = performance.now();
    const burst = new Map<string, number>();
    for (let written = 0; written < burstEvents; written += 500) {
      const { ids, committedAt } = await writeEvents(writer.db, owners, Math.min(500, burstEvents - written));
      for (const id of ids) burst.set(id, committedAt);
    }
    const burstWrittenMs = performance.now() - burstStart;
    await waitFor("the burst", () => [...burst.keys()].every((id) => received.has(id)), 180_000);
    const lastReceipt = Math.max(...[...burst.keys()].map((id) => received.get(id)!));
    const burstSeconds = (lastReceipt - burstStart) / 1000;
    const burstLatencies = [...burst].map(([id, at]) => received.get(id)! - at).sort((a, b) => a - b);
    // The last outcomes are recorded just after their receipt.
    let states: { succeeded: number; total: number } | undefined;
    await waitFor(
      "every delivery recorded",
      () => states?.succeeded === steadyEvents + burstEvents,
      30_000,
      async () => {
        [states] = await writer.db
          .select({ succeeded: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'succeeded')::int`, total: sql<number>`count(*)::int` })
          .from(webhookDeliveries);
      },
    );

    note("");
    note("## Webhook delivery (in-process worker, concurrency 16, loopback receiver answering 204)");
    note("");
    note(
      `- Commit to receipt, ${steadyEvents.toLocaleString("en")} events one per commit at ${steadyRate}/s (written in ${writeSeconds.toFixed(1)} s): ` +
        `**p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms**, max ${latencies.at(-1)!.toFixed(1)} ms; ${over(100)} over 100 ms, ${over(500)} over 500 ms`,
    );
    note(
      `- Burst of ${burstEvents.toLocaleString("en")} events (commits of 500, written in ${(burstWrittenMs / 1000).toFixed(1)} s): all received ${burstSeconds.toFixed(1)} s after the first write, ` +
        `**${Math.round(burstEvents / burstSeconds).toLocaleString("en")} deliveries/s**; commit to receipt p50 ${(percentile(burstLatencies, 0.5) / 1000).toFixed(1)} s, p99 ${(percentile(burstLatencies, 0.99) / 1000).toFixed(1)} s`,
    );
    note(`- Deliveries succeeded ${states?.succeeded}/${states?.total}; duplicate receipts ${duplicates}`);
  } finally {
    await worker?.stop();
    await workerDatabase.close();
    await writer.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchWebhooks(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/directory_bench", (line) => console.log(line));
  process.exit(0);
}
