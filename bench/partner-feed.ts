import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { backfillFeedDocuments, createApiKey, ownerEditSource, recordFeedChanges, updateOwnListing } from "@directory/api";
import { createDatabase, forChores, rowsOf } from "@directory/db";
import { cpuMsOf, feedHeaders, feedPages, memoryOf, walkFeed, type FeedEncoding, type PageFollowing } from "./feed";

/*
 * Issue 24's figures (BENCH_ONLY=partnerfeed): the export against COPY of the same rows, the export
 * under a reader throttled to 5 MB/s, the paged feed walk served from stored texts, and catching up
 * on 100,000 changes. The server is started by run.ts; this takes its URL and pid.
 */

type Note = (line: string) => void;

/** Stores the documents the feed serves (migration 0018's backfill), before the server starts: at 1M it outlasts a start's health check. */
export async function preparePartnerFeed(databaseUrl: string, note: Note): Promise<void> {
  const database = await createDatabase(forChores({ url: databaseUrl }));
  try {
    const started = performance.now();
    const written = await backfillFeedDocuments(database.db, 5_000);
    if (written > 0)
      note(`- Partner feed documents stored (backfill): ${written.toLocaleString("en")} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
}

/** COPY (the export's rows) TO STDOUT: the machine's limit for the export. */
async function copyExportRate(databaseUrl: string): Promise<number> {
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const started = performance.now();
    const stream = await client`copy (select document from feed_documents order by business_id) to stdout`.readable();
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    return Math.round(rows / ((performance.now() - started) / 1000));
  } finally {
    await client.end();
  }
}

/** GET the export, read at full speed or throttled (bytes per second), sampling the server's RSS; stops after maxSeconds. */
function readExport(url: string, key: string, pid: number, options: { bytesPerSecond?: number; maxSeconds?: number } = {}) {
  return new Promise<{ rows: number; bytes: number; seconds: number; rssMb: number[]; complete: boolean }>((resolve, reject) => {
    const started = performance.now();
    const rssMb: number[] = [];
    let bytes = 0;
    let rows = 0;
    let tail = "";
    const sampler = setInterval(() => rssMb.push(memoryOf(pid).rssMb), 250);
    const req = httpRequest(`${url}/api/v2/partner-feed/export`, { headers: { authorization: `Bearer ${key}` } }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`export answered ${response.statusCode}`));
      const finish = (complete: boolean) => {
        clearInterval(sampler);
        resolve({ rows, bytes, seconds: (performance.now() - started) / 1000, rssMb, complete });
      };
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
        tail = chunk.subarray(Math.max(0, chunk.length - 200)).toString("latin1");
        const elapsed = (performance.now() - started) / 1000;
        if (options.maxSeconds && elapsed > options.maxSeconds) {
          response.destroy();
          finish(false);
          return;
        }
        if (options.bytesPerSecond) {
          const ahead = bytes / options.bytesPerSecond - elapsed;
          if (ahead > 0) {
            response.pause();
            setTimeout(() => response.resume(), ahead * 1000);
          }
        }
      });
      response.on("end", () => finish(/"after":\d+/.test(tail)));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * How a catch-up client reads a page: parsed, as a partner applying the changes would, or only
 * its bytes (the changes counted in them, not parsed), which measures what the server delivers.
 */
type PageReading = "parse" | "bytes";

/** An entry's opening in a page's bytes: inside a document the same text would be escaped (`{\"seq\":`). */
const ENTRY_OPENING = Buffer.from('{"seq":');

function entriesIn(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(ENTRY_OPENING); at !== -1; at = bytes.indexOf(ENTRY_OPENING, at + ENTRY_OPENING.length)) count++;
  return count;
}

interface CatchUp {
  changes: number;
  seconds: number;
  /** CPU per page of 1,000 changes: this client's, and the server's. */
  clientMsPerPage: number;
  serverMsPerPage: number;
}

/** Catches up on every change after a position at limit 1000, each page read as `reading` says. */
async function catchUp(
  url: string,
  key: string,
  serverPid: number,
  after: number,
  encoding: FeedEncoding,
  following: PageFollowing,
  reading: PageReading = "parse",
): Promise<CatchUp> {
  const started = performance.now();
  const clientCpu = process.cpuUsage();
  const serverCpu = cpuMsOf(serverPid);
  let changes = 0;
  let pages = 0;
  const path = `/api/v2/partner-feed/changes?after=${after}&limit=1000`;
  const read =
    reading === "parse"
      ? async (response: Response) => ((await response.json()) as { changes: unknown[] }).changes.length
      : async (response: Response) => entriesIn(Buffer.from(await response.arrayBuffer()));
  for await (const count of feedPages(url, path, feedHeaders(key, encoding), following, read)) {
    changes += count;
    pages++;
  }
  const seconds = (performance.now() - started) / 1000;
  const client = process.cpuUsage(clientCpu);
  return {
    changes,
    seconds,
    clientMsPerPage: (client.user + client.system) / 1000 / pages,
    serverMsPerPage: (cpuMsOf(serverPid) - serverCpu) / pages,
  };
}

/** 100,000 upserts recorded through recordFeedChanges (as the write path records them), 1,000 businesses per transaction. */
export async function writeChanges(databaseUrl: string, count: number): Promise<{ start: number; perSecond: number }> {
  const database = await createDatabase(forChores({ url: databaseUrl }));
  try {
    const [position] = rowsOf<{ last: string }>(await database.db.execute(sql`select last from feed_position where id = 1`));
    const ids = rowsOf<{ id: string }>(await database.db.execute(sql`select business_id as id from feed_documents order by business_id limit ${count}`)).map(
      (row) => row.id,
    );
    const started = performance.now();
    for (let done = 0; done < count; done += 1_000) {
      const batch = Array.from({ length: 1_000 }, (_, i) => ids[(done + i) % ids.length]!);
      await database.db.transaction((tx) => recordFeedChanges(tx, batch, new Date()));
    }
    return { start: Number(position?.last ?? 0), perSecond: Math.round(count / ((performance.now() - started) / 1000)) };
  } finally {
    await database.close();
  }
}

/**
 * What recording the feed costs the claim write path (issue 24: at most 20% of its throughput):
 * - owner edits, one business per transaction as an owner saves one (updateOwnListing, what
 *   PATCH /api/v2/my/listing runs): the whole write path (claims, projection, outbox,
 *   recordFeedChanges storing the document and its upsert, commit),
 *   and recordFeedChanges for the same businesses with its numbering at commit; its share is the
 *   feed's cost;
 * - an import's businesses are not owner-verified, so recording finds them outside the feed:
 *   recordFeedChanges on 10,000 such businesses in batches of 1,000, per business, beside the
 *   import target's budget (5,000 businesses/s: 200 us each).
 */
async function writeCost(databaseUrl: string): Promise<{ editsPerSecond: number; editMs: number; feedMs: number; importFeedMicros: number }> {
  const database = await createDatabase(forChores({ url: databaseUrl }));
  try {
    const edits = 300;
    const visible = rowsOf<{ id: string; slug: string }>(
      await database.db.execute(
        sql`select b.id, b.slug from feed_documents d join businesses b on b.id = d.business_id order by d.business_id desc limit ${edits}`,
      ),
    );
    const started = performance.now();
    for (const [i, business] of visible.entries()) {
      await updateOwnListing(database.db, {
        businessId: business.id,
        source: ownerEditSource({ kind: "key", keyId: "bench" }),
        changes: { description: `Owner edit ${i} at ${started}` },
      });
    }
    const editMs = (performance.now() - started) / visible.length;
    // Its share inside the edit's transaction: the call, and the numbering the deferred trigger does
    // at commit (fired here by SET CONSTRAINTS), not the commit itself, which the edit pays anyway.
    let feedTotalMs = 0;
    for (const business of visible) {
      await database.db.transaction(async (tx) => {
        const feedStarted = performance.now();
        await recordFeedChanges(tx, [business.id], new Date());
        await tx.execute(sql`set constraints all immediate`);
        feedTotalMs += performance.now() - feedStarted;
      });
    }
    const feedMs = feedTotalMs / visible.length;

    const outside = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from businesses where ownership <> 'owner_verified' order by id limit 10000`),
    ).map((row) => row.id);
    const importStarted = performance.now();
    for (let done = 0; done < outside.length; done += 1_000) {
      await database.db.transaction((tx) => recordFeedChanges(tx, outside.slice(done, done + 1_000), new Date()));
    }
    const importFeedMicros = ((performance.now() - importStarted) * 1000) / Math.max(1, outside.length);
    return { editsPerSecond: Math.round(1000 / editMs), editMs, feedMs, importFeedMicros };
  } finally {
    await database.close();
  }
}

export async function benchPartnerFeed(databaseUrl: string, url: string, pid: number, note: Note): Promise<void> {
  const database = await createDatabase({ url: databaseUrl });
  const { key } = await createApiKey(database.db, { kind: "partner", label: "bench partner feed" }).finally(() => database.close());
  note("");
  note("## Partner feed: export, paged walk, change catch-up (issue 24)");
  note("");

  const copyRate = await copyExportRate(databaseUrl);
  const full = await readExport(url, key, pid);
  const exportRate = Math.round(full.rows / full.seconds);
  note(
    `- Export (GET /api/v2/partner-feed/export, no gzip): ${full.rows.toLocaleString("en")} lines, ${(full.bytes / 1e6).toFixed(0)} MB in ${full.seconds.toFixed(1)} s: **${exportRate.toLocaleString("en")} rows/s**; ` +
      `limit \`COPY (select document from feed_documents order by business_id) TO STDOUT\`: ${copyRate.toLocaleString("en")} rows/s. **Ratio ${((exportRate / copyRate) * 100).toFixed(1)}%** (target >= 50%); ` +
      `server RSS max ${Math.max(...full.rssMb)} MB (target < 200 MB)${full.complete ? "" : " (INCOMPLETE: no last line)"}`,
  );
  const throttled = await readExport(url, key, pid, { bytesPerSecond: 5_000_000, maxSeconds: 20 });
  note(
    `- Export read at 5 MB/s for ${throttled.seconds.toFixed(0)} s (${(throttled.bytes / 1e6).toFixed(0)} MB): server RSS ${Math.min(...throttled.rssMb)}..${Math.max(...throttled.rssMb)} MB (must not grow; target < 200 MB)`,
  );
  // The throttled reader disconnected: its key is free again within seconds.
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  // Each as a partner copying the feed inside its own network asks (identity, as the export above is
  // read): following the Link header as soon as it arrives (pipelined), then asking only after the
  // parse (sequential); then as fetch asks by default (gzip): on loopback that measures compression.
  const walk = await walkFeed(url, key, pid, 500, "identity", "pipelined");
  const walkSequential = await walkFeed(url, key, pid, 500, "identity", "sequential");
  const walkGzip = await walkFeed(url, key, pid, 500, "gzip", "sequential");
  note(
    `- Paged feed walk (limit 500, cursor, client parse included, no gzip, the next page asked for from the Link header before this one is parsed): ${walk.rows.toLocaleString("en")} rows in ${walk.seconds.toFixed(1)} s: **${walk.rowsPerSecond.toLocaleString("en")} rows/s** (target >= 30,000); ` +
      `page p50 ${walk.pageP50Ms} ms, p99 ${walk.pageP99Ms} ms; server RSS ${walk.rssSamplesMb.join(" / ")} MB, peak ${walk.peakMb} MB (target < 256 MB). ` +
      `Asking only after the parse: ${walkSequential.rowsPerSecond.toLocaleString("en")} rows/s; that gzipped (fetch's default): ${walkGzip.rowsPerSecond.toLocaleString("en")} rows/s, server RSS ${walkGzip.rssSamplesMb.join(" / ")} MB`,
  );

  const written = await writeChanges(databaseUrl, 100_000);
  // A first pass warms the server's code for these pages (the loads warm up alike); its figure is given too.
  const cold = await catchUp(url, key, pid, written.start, "identity", "pipelined");
  const caught = await catchUp(url, key, pid, written.start, "identity", "pipelined");
  const delivered = await catchUp(url, key, pid, written.start, "identity", "pipelined", "bytes");
  const caughtSequential = await catchUp(url, key, pid, written.start, "identity", "sequential");
  const caughtGzip = await catchUp(url, key, pid, written.start, "gzip", "sequential");
  const rate = (run: CatchUp) => Math.round(run.changes / run.seconds).toLocaleString("en");
  const cpu = (run: CatchUp) => `CPU a page: client ${run.clientMsPerPage.toFixed(1)} ms, server ${run.serverMsPerPage.toFixed(1)} ms`;
  note(
    `- Change catch-up (no gzip, following the Link header before parsing): ${caught.changes.toLocaleString("en")} changes at limit 1000 in ${caught.seconds.toFixed(1)} s: **${rate(caught)} changes/s** (target >= 50,000); ${cpu(caught)}` +
      ` (a client that parsed pages for nothing else could take at most ${Math.round(1_000_000 / caught.clientMsPerPage).toLocaleString("en")} changes/s on one core); ` +
      `the server's delivery, the client reading each page's bytes without parsing them: **${rate(delivered)} changes/s**, ${cpu(delivered)}; ` +
      `the first pass, on a cold server: ${rate(cold)} changes/s; asking only after the parse: ${rate(caughtSequential)} changes/s; that gzipped (fetch's default): ${rate(caughtGzip)} changes/s; ` +
      `recording them (recordFeedChanges, 1,000 businesses per transaction): ${written.perSecond.toLocaleString("en")} changes/s`,
  );

  const cost = await writeCost(databaseUrl);
  const editShare = (cost.feedMs / cost.editMs) * 100;
  const importShare = (cost.importFeedMicros / 200) * 100;
  note(
    `- Write cost of the feed: owner edits (one business a transaction, claim write path with outbox and feed) ${cost.editsPerSecond.toLocaleString("en")}/s, ${cost.editMs.toFixed(2)} ms each, of which recordFeedChanges ${cost.feedMs.toFixed(2)} ms: ` +
      `**${editShare.toFixed(0)}%** (target <= 20%; without it ~${Math.round(1000 / (cost.editMs - cost.feedMs)).toLocaleString("en")} edits/s); ` +
      `import (businesses outside the feed, batches of 1,000): ${cost.importFeedMicros.toFixed(1)} us per business, **${importShare.toFixed(0)}%** of the 5,000 businesses/s import target's 200 us (target <= 20%)`,
  );
}
