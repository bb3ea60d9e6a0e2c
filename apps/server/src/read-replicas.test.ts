import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, recordFeedChanges, seedDemoWorld } from "@directory/api";
import { createDatabase, migrate, openReadReplicas, rowsOf, type Database, type ReadReplicas, type ReplicaStatus } from "@directory/db";
import { startStreamingCluster, type StreamingCluster } from "@directory/db/streaming-cluster";
import { SMALL_TEST_WORLD } from "@directory/api/testing";
import { getJson, startTestServer, type Api, type TestServer } from "./testing";

/*
 * Reads that may be a little behind go to a streaming replica; writes, limits and a caller's own
 * reads after a write go to the primary. A real primary and replica (initdb, pg_basebackup -R),
 * started by the test on free loopback ports. PostgreSQL only: CI's PostgreSQL pass runs it.
 */

const POLL_MS = 100;
const METRICS_TOKEN = "replica-metrics-token";

describe.skipIf(!process.env.TEST_DATABASE_URL)("read replicas", () => {
  let cluster: StreamingCluster;
  let primary: Database;
  /** Replicas within a minute of the primary serve: a paused replay stays usable long enough to read stale. */
  let patient: { server: TestServer; replicas: ReadReplicas };
  /** Replicas more than a second behind are skipped. */
  let strict: { server: TestServer; replicas: ReadReplicas };
  let slug: string;
  let readerKey: string;
  let writerKey: string;

  async function serve(maxLagMs: number) {
    const replicas = (await openReadReplicas(primary, { urls: [cluster.replicaUrl("directory")], maxLagMs, pollIntervalMs: POLL_MS }))!;
    const server = await startTestServer({ database: { ...primary, destroy: async () => {} }, readReplicas: replicas, metricsToken: METRICS_TOKEN });
    return { server, replicas };
  }

  beforeAll(async () => {
    cluster = await startStreamingCluster();
    const admin = await createDatabase({ url: cluster.primaryUrl("postgres") });
    await admin.db.execute(sql`create database directory`);
    await admin.close();
    primary = await createDatabase({ url: cluster.primaryUrl("directory"), maxConnections: 10 });
    await migrate(primary);
    await seedDemoWorld(primary.db, SMALL_TEST_WORLD);
    slug = rowsOf<{ slug: string }>(await primary.db.execute(sql`select slug from businesses where status = 'active' order by slug limit 1`))[0]!.slug;
    readerKey = (await createApiKey(primary.db, { kind: "developer", label: "reader" })).key;
    writerKey = (await createApiKey(primary.db, { kind: "developer", label: "writer" })).key;
    patient = await serve(60_000);
    strict = await serve(1_000);
    await until(async () => (await cluster.caughtUp()) && (await statuses(patient.server)).every((status) => status.state === "ok"));
  }, 180_000);

  afterAll(async () => {
    for (const instance of [patient, strict]) {
      await instance?.server.close();
      await instance?.replicas.close();
    }
    await primary?.close();
    await cluster?.close();
  });

  /** The profile's name as one caller reads it through a server. */
  async function nameSeenBy(server: TestServer, key: string): Promise<string> {
    const answer = await getJson<Api.TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`, { Authorization: `Bearer ${key}` });
    expect(answer.status).toBe(200);
    return answer.body.identity.name;
  }

  /** Renames the business on the primary alone (as another instance's write would). */
  async function renameOnPrimary(name: string): Promise<void> {
    await primary.db.execute(sql`update businesses set name = ${name} where slug = ${slug}`);
  }

  it("serves reads from the replica, and a caller's own reads after a write from the primary", async () => {
    await renameOnPrimary("Before The Pause");
    await until(() => cluster.caughtUp());
    await cluster.pauseReplay();
    try {
      await renameOnPrimary("After The Pause");
      const servedByReplica = await routedReads(patient.server, "replica");
      expect(await nameSeenBy(patient.server, readerKey)).toBe("Before The Pause");
      expect(await routedReads(patient.server, "replica")).toBe(servedByReplica + 1);

      // The writer writes (a correction) and then reads: the replica has not replayed its write.
      const correction = await fetch(`${patient.server.url}/api/v2/corrections`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${writerKey}` },
        body: JSON.stringify({ slug, property: "phone", value: "+91 22 4000 9999", evidence: "https://example.org/notice" }),
      });
      expect(correction.status).toBe(201);
      expect(await nameSeenBy(patient.server, writerKey)).toBe("After The Pause");
      expect(await nameSeenBy(patient.server, readerKey)).toBe("Before The Pause");
    } finally {
      await cluster.resumeReplay();
    }
    // Once the replica has replayed the write (and a poll has seen it), the writer reads there again.
    await until(() => cluster.caughtUp());
    await patient.replicas.poll();
    const servedByReplica = await routedReads(patient.server, "replica");
    expect(await nameSeenBy(patient.server, writerKey)).toBe("After The Pause");
    expect(await routedReads(patient.server, "replica")).toBe(servedByReplica + 1);
  });

  it("skips a replica that lags more than REPLICA_MAX_LAG_MS, and reports it", async () => {
    await until(() => cluster.caughtUp());
    await cluster.pauseReplay();
    try {
      await renameOnPrimary("Lagging Behind");
      await until(async () => (await statuses(strict.server))[0]?.state === "lagging");
      const [lagging] = await statuses(strict.server);
      expect(lagging!.lagMs).toBeGreaterThan(1_000);
      expect(await nameSeenBy(strict.server, readerKey)).toBe("Lagging Behind");
      // The patient server still counts the same replica as usable, and reads the old name there.
      expect((await statuses(patient.server))[0]?.state).toBe("ok");
      expect(await nameSeenBy(patient.server, readerKey)).not.toBe("Lagging Behind");
      const metrics = await (await fetch(`${strict.server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toMatch(/directory_replica_lag_seconds\{replica="127\.0\.0\.1:\d+\/directory"\} (\d+\.?\d*)/);
      expect(Number(/directory_replica_lag_seconds\{[^}]*\} ([\d.]+)/.exec(metrics)![1])).toBeGreaterThan(1);
    } finally {
      await cluster.resumeReplay();
    }
    await until(async () => (await statuses(strict.server))[0]?.state === "ok");
  });

  it("moves reads to the primary while the replica is down, and back when it returns", async () => {
    await cluster.stopReplica();
    try {
      await until(async () => (await statuses(patient.server))[0]?.state === "down");
      expect((await statuses(patient.server))[0]).toMatchObject({ state: "down", lagMs: null });
      await renameOnPrimary("While It Was Down");
      const servedByPrimary = await routedReads(patient.server, "primary");
      expect(await nameSeenBy(patient.server, readerKey)).toBe("While It Was Down");
      expect(await routedReads(patient.server, "primary")).toBe(servedByPrimary + 1);
      const health = await getJson<{ status: string }>(patient.server.url, "/healthz");
      expect(health.status).toBe(200);
    } finally {
      await cluster.startReplica();
    }
    await until(async () => (await statuses(patient.server))[0]?.state === "ok");
    const servedByReplica = await routedReads(patient.server, "replica");
    await nameSeenBy(patient.server, readerKey);
    expect(await routedReads(patient.server, "replica")).toBe(servedByReplica + 1);
  });

  it("keeps the change feed whole and in commit order under concurrent writers, read from the replica and the primary in turn", async () => {
    const partnerKey = (await createApiKey(primary.db, { kind: "partner", label: "feed" })).key;
    // Businesses in the partner feed: a change is recorded only for those.
    const ids = rowsOf<{ id: string }>(await primary.db.execute(sql`select business_id as id from feed_documents order by business_id limit 40`)).map(
      (row) => row.id,
    );
    const start = await feedLast(primary);
    const plain = { server: await startTestServer({ database: { ...primary, destroy: async () => {} } }) };
    try {
      const WRITERS = 4;
      const ROUNDS = 15;
      let writing = true;
      const writers = Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          for (let round = 0; round < ROUNDS; round++) {
            const batch = ids.filter((_, index) => index % WRITERS === writer).slice(round % 5, (round % 5) + 3);
            await primary.db.transaction((tx) => recordFeedChanges(tx, batch, new Date()));
          }
        }),
      ).finally(() => (writing = false));

      const seen: number[] = [];
      let after = start;
      for (let turn = 0; writing || turn < 1_000; turn++) {
        const server = turn % 2 === 0 ? patient.server : plain.server;
        const page = await getJson<Api.TGetPartnerFeedChangesOutput>(server.url, `/api/v2/partner-feed/changes?after=${after}&limit=7`, {
          Authorization: `Bearer ${partnerKey}`,
        });
        expect(page.status).toBe(200);
        seen.push(...page.body.changes.map((change) => change.seq));
        after = page.body.nextAfter;
        if (!writing && !page.body.hasMore && (await cluster.caughtUp())) break;
        if (page.body.changes.length === 0) await sleep(20);
      }
      await writers;
      // A position the primary gave, asked of a replica that has not replayed it: answered, not refused.
      await cluster.pauseReplay();
      try {
        await primary.db.transaction((tx) => recordFeedChanges(tx, ids.slice(0, 2), new Date()));
        const fresh = await getJson<Api.TGetPartnerFeedChangesOutput>(plain.server.url, `/api/v2/partner-feed/changes?after=${after}`, {
          Authorization: `Bearer ${partnerKey}`,
        });
        seen.push(...fresh.body.changes.map((change) => change.seq));
        after = fresh.body.nextAfter;
        const fromBehind = await getJson<Api.TGetPartnerFeedChangesOutput>(patient.server.url, `/api/v2/partner-feed/changes?after=${after}`, {
          Authorization: `Bearer ${partnerKey}`,
        });
        expect(fromBehind.status).toBe(200);
        expect(fromBehind.body).toMatchObject({ changes: [], nextAfter: after });
      } finally {
        await cluster.resumeReplay();
      }
      const last = await feedLast(primary);
      const expected = Array.from({ length: last - start }, (_, index) => start + index + 1);
      expect(expected.length).toBe(WRITERS * ROUNDS * 3 + 2);
      expect(seen).toEqual(expected);
    } finally {
      await plain.server.close();
    }
  });
});

async function feedLast(database: Database): Promise<number> {
  return Number(rowsOf<{ last: string }>(await database.db.execute(sql`select last::text from feed_position where id = 1`))[0]?.last ?? 0);
}

async function statuses(server: TestServer): Promise<ReplicaStatus[]> {
  const health = await getJson<{ replicas: ReplicaStatus[] }>(server.url, "/healthz");
  return health.body.replicas;
}

/** Reads routed to the replica ("replica") or to the primary, from the server's metrics. */
async function routedReads(server: TestServer, to: "replica" | "primary"): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const pattern =
    to === "primary" ? /directory_replica_routed_reads_total\{server="primary"\} (\d+)/ : /directory_replica_routed_reads_total\{server="127[^"]*"\} (\d+)/;
  return Number(pattern.exec(text)?.[1] ?? 0);
}

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the cluster");
    await sleep(POLL_MS);
  }
}
