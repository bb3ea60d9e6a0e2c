import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, outboxEvents, webhookDeliveries, webhookDeliveryAttempts } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * Chaos: 1,000 events, a receiver that fails about half the first attempts (500, or no answer
 * within the attempt timeout), and the standalone worker (`pnpm worker`, a separate process)
 * SIGKILLed 3 times mid-delivery. Every event must arrive, none may be lost, and a duplicate may
 * only ever repeat the same webhook-id with the same signed bytes.
 */
const EVENTS = 1_000;
const KILL_AFTER_DISTINCT_EVENTS = [150, 400, 700];
const ATTEMPT_TIMEOUT_MS = 300;
/** A killed worker's claims come due again after the timeout plus this (default 30 s: too slow here). */
const LEASE_MARGIN_MS = 2_000;
/** The worker's default concurrency: a kill can interrupt at most this many attempts. */
const WORKER_CONCURRENCY = 16;
const DELIVERED_WITHIN_MS = 90_000;

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const workerMain = fileURLToPath(new URL("./worker-main.ts", import.meta.url));
const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url));

interface EventLog {
  /** Requests received for this webhook-id, in order (a stalled one counts: the worker sent it). */
  attempts: number;
  /** 2xx answers the receiver gave (more than one is a duplicate). */
  successes: number;
  bodies: Set<string>;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// PGlite is one process per data folder, so a worker in another process cannot share it.
describe.skipIf(!testDatabaseUrl)(
  "webhook delivery under chaos (PostgreSQL only: needs TEST_DATABASE_URL, since a separate worker process cannot share an embedded PGlite)",
  () => {
    const sealingKey = randomBytes(32);
    const events = new Map<string, EventLog>();
    const stalled = new Set<ServerResponse>();
    let badSignatures = 0;
    let mismatchedIds = 0;
    let receiver: Server;
    let receiverUrl: string;
    let secret = "";
    let server: TestServer;
    let dataDir: string;
    let worker: ChildProcess | null = null;
    const workerOutput: string[] = [];

    /**
     * What the receiver answers, by how many requests it has seen for this webhook-id: the 1st fails
     * about half the time (mostly 500, sometimes a stall past the attempt timeout), the 2nd about
     * one time in six, the 3rd and later never. So an event needs at most 3 attempts the receiver
     * sees; the 5 the worker makes leave 2 for attempts a SIGKILL cuts off (claimed, never
     * finished), and a delivery would have to be in flight at all 3 kills to run out.
     */
    function scriptedAnswer(attempt: number): "ok" | "error" | "stall" {
      const roll = Math.random();
      const failRate = attempt === 1 ? 0.5 : attempt === 2 ? 0.16 : 0;
      if (roll >= failRate) return "ok";
      return roll < failRate * 0.08 ? "stall" : "error";
    }

    function spawnWorker(): ChildProcess {
      const child = spawn(process.execPath, ["--import", "tsx", workerMain], {
        cwd: repositoryRoot,
        env: {
          ...process.env,
          DATABASE_URL: server.database.url,
          WEBHOOK_SECRET_KEY: sealingKey.toString("hex"),
          WEBHOOK_RETRY_DELAYS_MS: "20,20,20,20",
          WEBHOOK_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
          WEBHOOK_LEASE_MARGIN_MS: String(LEASE_MARGIN_MS),
          WEBHOOK_ALLOW_LOOPBACK: "true",
          LOG_LEVEL: "warn",
          DATA_DIR: dataDir,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const keep = (chunk: Buffer) => {
        workerOutput.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        workerOutput.splice(0, Math.max(0, workerOutput.length - 200));
      };
      child.stdout?.on("data", keep);
      child.stderr?.on("data", keep);
      return child;
    }

    async function kill(child: ChildProcess): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const id = String(req.headers["webhook-id"]);
          if (req.headers["x-service-signature"] !== createHmac("sha256", secret).update(body).digest("hex")) badSignatures++;
          if ((JSON.parse(body) as { id: string }).id !== id) mismatchedIds++;
          const log = events.get(id) ?? { attempts: 0, successes: 0, bodies: new Set<string>() };
          events.set(id, log);
          log.attempts++;
          log.bodies.add(body);
          const answer = scriptedAnswer(log.attempts);
          if (answer === "stall") {
            // No answer: the worker gives up at its timeout and closes the connection.
            stalled.add(res);
            res.on("close", () => stalled.delete(res));
            return;
          }
          if (answer === "ok") log.successes++;
          res.statusCode = answer === "ok" ? 200 : 500;
          res.end(answer === "ok" ? "ok" : "try again");
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const address = receiver.address();
      receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
      dataDir = mkdtempSync(join(tmpdir(), "directory-webhook-chaos-"));
      // The API alone: delivery is the separate worker process's job.
      server = await startTestServer({ seed: SMALL_TEST_WORLD, webhookSecretKey: sealingKey });
      const developerKey = (await createApiKey(server.database.db, { kind: "developer", label: "chaos" })).key;
      const response = await fetch(`${server.url}/api/developers/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${developerKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiverUrl, events: ["entity.updated"] }),
      });
      expect(response.status).toBe(201);
      secret = ((await response.json()) as { secret: string }).secret;
    });

    afterAll(async () => {
      if (worker) await kill(worker);
      for (const res of stalled) res.destroy();
      receiver?.closeAllConnections();
      await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
      await server?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      "delivers all 1,000 events through a flaky receiver and 3 SIGKILLs: none lost, duplicates only with the same id and bytes",
      { timeout: 150_000 },
      async () => {
        const db = server.database.db;
        const owners = await db.select({ id: businesses.id, slug: businesses.slug }).from(businesses).limit(50);
        const started = Date.now();
        worker = spawnWorker();

        // Events keep arriving while the worker runs (and dies): 10 commits of 100, like a busy write path.
        const writing = (async () => {
          const ids: number[] = [];
          for (let batch = 0; batch < EVENTS / 100; batch++) {
            const at = new Date();
            const rows = Array.from({ length: 100 }, (_, index) => {
              const owner = owners[(batch * 100 + index) % owners.length]!;
              const payload = {
                event: "entity.updated",
                businessId: owner.id,
                slug: owner.slug,
                change: "claims",
                properties: ["phone"],
                occurredAt: at.toISOString(),
              };
              return { eventType: "entity.updated", businessId: owner.id, payload, createdAt: at };
            });
            ids.push(...(await db.insert(outboxEvents).values(rows).returning({ id: outboxEvents.id })).map((row) => row.id));
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return ids;
        })();

        const kills: { afterDistinct: number; atMs: number }[] = [];
        for (const threshold of KILL_AFTER_DISTINCT_EVENTS) {
          await until(`${threshold} distinct events at the receiver`, () => (events.size >= threshold ? true : undefined), DELIVERED_WITHIN_MS);
          await kill(worker);
          kills.push({ afterDistinct: events.size, atMs: Date.now() - started });
          worker = spawnWorker();
        }
        const outboxIds = await writing;
        expect(outboxIds).toHaveLength(EVENTS);

        const settled = await until(
          "every delivery to succeed or fail",
          async () => {
            const [row] = await db
              .select({
                total: sql<number>`count(*)::int`,
                pending: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'pending')::int`,
                failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')::int`,
                attempts: sql<number>`coalesce(sum(${webhookDeliveries.attempts}), 0)::int`,
                maxAttempts: sql<number>`coalesce(max(${webhookDeliveries.attempts}), 0)::int`,
              })
              .from(webhookDeliveries);
            return row?.total === EVENTS && row.pending === 0 ? row : undefined;
          },
          DELIVERED_WITHIN_MS,
        );
        const elapsedMs = Date.now() - started;

        // Nothing lost: every outbox event handed over, every delivery succeeded, every id answered 2xx.
        const [undispatched] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(outboxEvents)
          .where(sql`${outboxEvents.dispatchedAt} is null`);
        expect(undispatched?.n).toBe(0);
        expect(settled.failed).toBe(0);
        const expectedIds = outboxIds.map((id) => `evt_${id}`);
        const undelivered = expectedIds.filter((id) => (events.get(id)?.successes ?? 0) === 0);
        expect(undelivered).toEqual([]);
        expect([...events.keys()].filter((id) => !expectedIds.includes(id))).toEqual([]);

        // Every request verifies; a repeated webhook-id always carries byte-identical bodies.
        expect(badSignatures).toBe(0);
        expect(mismatchedIds).toBe(0);
        expect([...events].filter(([, log]) => log.bodies.size !== 1).map(([id]) => id)).toEqual([]);

        // A duplicate is a 2xx the receiver gave but a killed worker never recorded: at most one per
        // attempt in flight at a kill.
        const duplicated = [...events.values()].filter((log) => log.successes > 1);
        const duplicates = duplicated.reduce((sum, log) => sum + log.successes - 1, 0);
        expect(duplicates).toBeLessThanOrEqual(kills.length * WORKER_CONCURRENCY);

        const received = [...events.values()].reduce((sum, log) => sum + log.attempts, 0);
        const [logged] = await db
          .select({
            total: sql<number>`count(*)::int`,
            ok: sql<number>`count(*) filter (where ${webhookDeliveryAttempts.statusCode} between 200 and 299)::int`,
            errors: sql<number>`count(*) filter (where ${webhookDeliveryAttempts.statusCode} = 500)::int`,
            timeouts: sql<number>`count(*) filter (where ${webhookDeliveryAttempts.statusCode} is null)::int`,
          })
          .from(webhookDeliveryAttempts)
          .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookDeliveryAttempts.deliveryId));
        // The receiver's failures were met and recorded as failures (not lost to a failing worker round).
        expect(logged?.errors).toBeGreaterThan(0);
        expect(logged?.timeouts).toBeGreaterThan(0);
        const failedRounds = workerOutput.filter((line) => line.includes("round failed"));
        expect(failedRounds.length, failedRounds[0]?.slice(0, 500)).toBe(0);
        console.warn(
          [
            `webhook chaos: ${EVENTS} events delivered in ${(elapsedMs / 1000).toFixed(1)} s, 0 lost, 0 failed`,
            `  kills: ${kills.map((k) => `after ${k.afterDistinct} distinct events (${(k.atMs / 1000).toFixed(1)} s)`).join(", ")}`,
            `  attempts claimed ${settled.attempts} (most for one event: ${settled.maxAttempts}); logged ${logged?.total} (2xx ${logged?.ok}, 500 ${logged?.errors}, timeout ${logged?.timeouts}); received ${received}`,
            `  duplicates: ${duplicates} extra 2xx over ${duplicated.length} events, each the same webhook-id and bytes`,
            `  worker log lines at warn or above: ${workerOutput.length}${workerOutput.length ? `\n    ${workerOutput.slice(-5).join("\n    ")}` : ""}`,
          ].join("\n"),
        );
      },
    );
  },
);
