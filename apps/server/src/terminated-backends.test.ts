import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, rowsOf, type Database } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "@directory/api/testing";
import { startTestServer, type TestServer } from "./testing";

/**
 * Issue 38, finding 4: backends terminated under load (a failover, an operator's
 * pg_terminate_backend, a pooler restart). The connections that lost their backend reconnect; the
 * server must serve again at once, not refuse queries as if the healthy database were down.
 */
const SENDERS = 16;
const ROUNDS = 3;
const AFTER_RECOVERY_REQUESTS = 200;

let database: TestDatabase;
let operator: Database;
let server: TestServer;

describe.skipIf(!process.env.TEST_DATABASE_URL)("backends terminated under load (needs TEST_DATABASE_URL)", () => {
  beforeAll(async () => {
    database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
    operator = await createDatabase({ url: database.url! });
    server = await startTestServer({ database, rateLimits: { anonymousPerDay: 1_000_000, openPerMinute: 1_000_000 } });
  });
  afterAll(async () => {
    await server?.close();
    await operator?.close();
    await database?.destroy();
  });

  const paths = ["/api/v2/businesses?category=dentist&city=Mumbai&limit=5", "/healthz", "/api/v2/businesses?category=plumber&city=London&limit=5"];

  /** Sends requests from SENDERS loops until `running()` is false; returns every status. */
  async function load(running: () => boolean): Promise<number[]> {
    const statuses: number[] = [];
    let sent = 0;
    const sender = async () => {
      while (running()) {
        // A request the pool never sends fails the test instead of hanging it.
        const response = await fetch(`${server.url}${paths[sent++ % paths.length]}`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, sender));
    return statuses;
  }

  async function terminateServerBackends(): Promise<number> {
    const rows = await operator.db.execute<{ terminated: boolean }>(
      // With a timeout, pg_terminate_backend returns once the backend is gone, not when it was signalled.
      sql`select pg_terminate_backend(pid, 5000) as terminated from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    return rowsOf(rows).length;
  }

  it("serves every request once the first succeeds after the terminations: no 503 from a healthy database", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      let loading = true;
      const during = load(() => loading);
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Backends are killed while queries are being written to them.
      expect(await terminateServerBackends()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      loading = false;
      // Requests caught by a termination may fail; none may answer anything but 200 or 503.
      expect((await during).filter((status) => status !== 200 && status !== 503)).toEqual([]);

      // Recovered once one request succeeds; from then on, every request is served.
      const deadline = performance.now() + 10_000;
      while ((await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status !== 200) {
        expect(performance.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      let served = 0;
      const after = await load(() => served++ < AFTER_RECOVERY_REQUESTS);
      expect(after.filter((status) => status !== 200)).toEqual([]);
    }
  });
});
