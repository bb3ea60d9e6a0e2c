import { isAscii } from "node:buffer";
import { readFileSync } from "node:fs";
import { and, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, feedDocuments, outboxEvents, rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { feedChangesPage, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { decommissionBusiness, reactivateBusiness } from "../claims/lifecycle";
import { unverifyOwner, verifyOwner } from "../claims/verification";
import { findBusinessById } from "../entities/business-lookup";
import { toJsonLd } from "../entities/structured-data";
import { asciiJson } from "./ascii-json";
import { feedPosition, pruneFeedChanges, sweepExpiredSubscriptions } from "./changes";
import { backfillFeedDocuments, baseBytes, recordFeedChanges, servedDocument, servedPieces } from "./feed-documents";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const changesAfter = (after: number, limit = 1000) => feedChangesPage(database.db, { after, limit, baseUrl: TEST_BASE_URL });

async function visibleBusiness(offset: number) {
  const [row] = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .innerJoin(feedDocuments, eq(feedDocuments.businessId, businesses.id))
    .where(and(eq(businesses.status, "active"), sql`${businesses.subscriptionExpiresAt} is null`))
    .orderBy(businesses.id)
    .offset(offset)
    .limit(1);
  return row!;
}

/**
 * The most table pages any 50 documents in a row of the feed's order lie on: what a page read pays
 * for. A row too long for the page being filled goes to the next one, and a later, shorter one may
 * still fill the gap it left, so documents written in the feed's order are so but for short steps
 * back: 3 to 4 fill a page, and 50 lay on 11 to 19 pages here; in id order, on 38 to 48.
 */
async function mostTablePagesPerRun(db: Db): Promise<number> {
  const blocks = rowsOf<{ block: string }>(
    await db.execute(sql`select (d.ctid::text::point)[0]::int::text as "block" from feed_documents d
      join businesses b on b.id = d.business_id order by b.updated_at, b.id`),
  ).map((row) => Number(row.block));
  return Math.max(...blocks.slice(0, -50).map((_, start) => new Set(blocks.slice(start, start + 50)).size));
}

describe("stored documents", () => {
  it("equal the builder's output for every feed-visible business of the demo world, and exist for those only", async () => {
    const visible = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from businesses where status = 'active' and ownership = 'owner_verified'
        and (subscription_expires_at is null or subscription_expires_at > now()) order by id`),
    );
    const stored = await database.db.select().from(feedDocuments).orderBy(feedDocuments.businessId);
    expect(visible.length).toBeGreaterThan(10);
    expect(stored.map((row) => row.businessId)).toEqual(visible.map((row) => row.id));
    for (const row of stored) {
      // The demo world's businesses came from no registry record.
      const record = { ...(await findBusinessById(database.db, row.businessId))!, registryRecordId: null };
      const served = servedDocument(row.document, TEST_BASE_URL);
      expect(served).toBe(asciiJson(toJsonLd(record, TEST_BASE_URL)));
      expect(JSON.parse(served)).toEqual(JSON.parse(JSON.stringify(toJsonLd(record, TEST_BASE_URL))));
    }
    // Written in ASCII, escapes for the rest: the demo world has names and places beyond it.
    expect(stored.every((row) => isAscii(Buffer.from(row.document)))).toBe(true);
    expect(stored.some((row) => /\\u00[89a-f][0-9a-f]|\\u0[1-9a-f][0-9a-f]{2}|\\u[1-9a-f][0-9a-f]{3}/.test(row.document))).toBe(true);
  });

  it("are written by the backfill in the feed's order, (updated_at, id), batch after batch", async () => {
    await database.db.execute(sql`truncate feed_documents`);
    // Batches of 7: the order holds across batches, not only within one.
    const written = await backfillFeedDocuments(database.db, 7);
    const [visible] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as "n" from businesses where status = 'active' and ownership = 'owner_verified'
        and (subscription_expires_at is null or subscription_expires_at > now())`),
    );
    expect(written).toBe(visible!.n);
    expect(await mostTablePagesPerRun(database.db)).toBeLessThanOrEqual(25);
    // As at every server start: nothing missing, nothing written.
    expect(await backfillFeedDocuments(database.db, 7)).toBe(0);
  });

  it("stored in id order by an older backfill, lie in the feed's order after migration 0028, unchanged", async () => {
    const contents = async (db: Db) =>
      rowsOf<{ row: string }>(
        await db.execute(sql`select concat_ws('|', business_id, document, changed_at) as "row" from feed_documents order by business_id`),
      );
    await database.db.transaction(async (tx) => {
      // One connection: the migration's temporary table lives in its session.
      await tx.execute(sql`create temp table stored_before as select * from feed_documents`);
      await tx.execute(sql`truncate feed_documents`);
      await tx.execute(sql`insert into feed_documents select * from stored_before order by business_id`);
      await tx.execute(sql`drop table stored_before`);
      expect(await mostTablePagesPerRun(tx)).toBeGreaterThan(25);
      const before = await contents(tx);
      const migration = readFileSync(new URL("../../../../db/migrations/0028_feed_documents_in_feed_order.sql", import.meta.url), "utf8");
      for (const statement of migration.split("--> statement-breakpoint")) await tx.execute(sql.raw(statement));
      expect(await mostTablePagesPerRun(tx)).toBeLessThanOrEqual(25);
      expect(await contents(tx)).toEqual(before);
    });
  });

  it("serve under any base URL with the URLs the builder makes, and owner text that spells the placeholder stays text", async () => {
    const business = await visibleBusiness(0);
    await writeClaims(database.db, [
      {
        business,
        claims: [{ property: "description", value: 'A "\\u0001 test" \\u0001', source: "owner:test", confidence: 0.9, verification: "self_reported" }],
      },
    ]);
    const [row] = await database.db.select().from(feedDocuments).where(eq(feedDocuments.businessId, business.id));
    const base = "https://example.org/dir";
    const served = JSON.parse(servedDocument(row!.document, base)) as ReturnType<typeof toJsonLd>;
    expect(served).toEqual(JSON.parse(JSON.stringify(toJsonLd({ ...(await findBusinessById(database.db, business.id))!, registryRecordId: null }, base))));
    expect(served.description).toBe('A "\\u0001 test" \\u0001');
    // As bytes (PostgreSQL's raw rows), cut around the placeholder: the same text.
    const pieces: (string | Uint8Array)[] = [];
    servedPieces(Buffer.from(row!.document), baseBytes(base), pieces);
    expect(Buffer.concat(pieces.map((piece) => Buffer.from(piece))).toString()).toBe(servedDocument(row!.document, base));
  });
});

describe("the change feed", () => {
  it("records an upsert per write and a remove with the reason when a business leaves the feed", async () => {
    const { last: start } = await feedPosition(database.db);
    const [{ lastEvent }] = rowsOf<{ lastEvent: number }>(
      await database.db.execute(sql`select coalesce(max(id), 0)::int as "lastEvent" from outbox_events`),
    ) as [{ lastEvent: number }];
    const business = await visibleBusiness(1);
    await writeClaims(database.db, [
      { business, claims: [{ property: "phone", value: "+1 555 0100", source: "owner:test", confidence: 0.9, verification: "self_reported" }] },
    ]);
    await decommissionBusiness(database.db, { slug: business.slug });
    await decommissionBusiness(database.db, { slug: business.slug });
    await reactivateBusiness(database.db, { slug: business.slug });
    await unverifyOwner(database.db, { slug: business.slug });
    await verifyOwner(database.db, { slug: business.slug });

    const page = await changesAfter(start);
    const mine = page.changes.filter((change) => change.id === business.id);
    expect(mine.map((change) => [change.action, change.reason])).toEqual([
      ["upsert", undefined],
      ["remove", "decommissioned"],
      ["upsert", undefined],
      ["remove", "no_longer_verified"],
      ["upsert", undefined],
    ]);
    // Webhooks and the change feed agree: one entry per entity.updated of a business that is or was in the feed.
    const events = await database.db
      .select({ id: outboxEvents.id })
      .from(outboxEvents)
      .where(and(eq(outboxEvents.businessId, business.id), gt(outboxEvents.id, lastEvent)));
    expect(events).toHaveLength(mine.length);
    expect(mine[0]!.location?.telephone).toBe("+1 555 0100");
    expect(mine[0]!.location?.identifier).toBe(business.id);
    const seqs = page.changes.map((change) => change.seq);
    expect(seqs).toEqual(seqs.map((_, index) => start + index + 1));
    expect(page.nextAfter).toBe(seqs.at(-1));
    expect(page.hasMore).toBe(false);
  });

  it("writes each kind of entry with exactly its fields, as the table holds them (changedAt as toISOString writes it)", async () => {
    const { last: start } = await feedPosition(database.db);
    const [upserted, merged, survivor] = [await visibleBusiness(2), await visibleBusiness(3), await visibleBusiness(4)];
    // Sub-millisecond digits: toISOString drops them, and so must the page.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000 + 891);
    await database.db.transaction((tx) => recordFeedChanges(tx, [upserted.id], at));
    await database.db.transaction((tx) => recordFeedChanges(tx, [merged.id], at, { reason: "merged", mergedInto: survivor.id }));
    await database.db.execute(sql`update feed_changes set changed_at = changed_at + interval '999 microseconds' where seq > ${start}`);
    await decommissionBusiness(database.db, { slug: survivor.slug });
    const stored = rowsOf<{ seq: number; changedAt: string }>(
      await database.db.execute(sql`select seq::int as "seq", changed_at::text as "changedAt" from feed_changes where seq > ${start} order by seq`),
    );
    const page = await changesAfter(start);
    expect(page.changes.map((change) => change.seq)).toEqual(stored.map((row) => row.seq));
    const [upsert, mergedRemove, remove] = page.changes;
    expect(Object.keys(upsert!)).toEqual(["seq", "action", "id", "changedAt", "location"]);
    expect(upsert).toMatchObject({ action: "upsert", id: upserted.id, changedAt: at.toISOString() });
    expect(upsert!.location?.identifier).toBe(upserted.id);
    expect(mergedRemove).toEqual({
      seq: stored[1]!.seq,
      action: "remove",
      id: merged.id,
      changedAt: at.toISOString(),
      reason: "merged",
      mergedInto: survivor.id,
    });
    expect(Object.keys(remove!)).toEqual(["seq", "action", "id", "changedAt", "reason"]);
    expect(remove).toMatchObject({ action: "remove", id: survivor.id, reason: "decommissioned" });
    expect(remove!.changedAt).toBe(new Date(stored[2]!.changedAt).toISOString());
  });

  it("pages with nextAfter and hasMore, and answers an empty page with nextAfter unchanged", async () => {
    const { last } = await feedPosition(database.db);
    const first = await changesAfter(last - 3, 2);
    expect(first.changes).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const second = await changesAfter(first.nextAfter, 2);
    expect(second.changes.map((change) => change.seq)).toEqual([last]);
    expect(second.hasMore).toBe(false);
    expect(await changesAfter(last)).toEqual({ changes: [], nextAfter: last, hasMore: false, attributions: [] });
  });

  it("removes a business whose subscription ran out, once, when swept", async () => {
    const business = await visibleBusiness(2);
    await reactivateBusiness(database.db, { slug: business.slug, renewUntil: new Date(Date.now() + 1_000) });
    const { last } = await feedPosition(database.db);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await sweepExpiredSubscriptions(database.db)).toBeGreaterThanOrEqual(1);
    expect(await sweepExpiredSubscriptions(database.db)).toBe(0);
    const page = await changesAfter(last);
    expect(page.changes.filter((change) => change.id === business.id).map((change) => change.reason)).toEqual(["subscription_expired"]);
  });

  it("refuses a position it never gave (400) and one past retention (410, saying to take a fresh export)", async () => {
    const { last } = await feedPosition(database.db);
    await expect(changesAfter(last + 1)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    // Age every change: a position before them is then older than 30 days.
    await database.db.execute(sql`update feed_changes set changed_at = now() - interval '40 days'`);
    const stale = await changesAfter(1).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(DomainError);
    expect((stale as DomainError).httpStatus).toBe(410);
    expect((stale as DomainError).message).toMatch(/fresh export/);
    expect(await pruneFeedChanges(database.db)).toBeGreaterThan(0);
    const position = await feedPosition(database.db);
    expect(position.prunedThrough).toBe(last);
    await expect(changesAfter(0)).rejects.toMatchObject({ code: "POSITION_EXPIRED" });
    expect(await changesAfter(last)).toEqual({ changes: [], nextAfter: last, hasMore: false, attributions: [] });
  });

  it("prunes in batches along the positions, up to the first change still within retention", async () => {
    const business = await visibleBusiness(3);
    const start = (await feedPosition(database.db)).last;
    for (let edit = 0; edit < 5; edit++) {
      await writeClaims(database.db, [
        { business, claims: [{ property: "description", value: `Prune test ${edit}`, source: "owner:test", confidence: 0.9, verification: "self_reported" }] },
      ]);
    }
    const written = (await changesAfter(start)).changes.map((change) => change.seq);
    expect(written).toHaveLength(5);
    const lastAged = written[3]!;
    // Every change up to the fourth edit's ages past retention (earlier tests' too).
    await database.db.execute(sql`update feed_changes set changed_at = now() - interval '40 days' where seq <= ${lastAged}`);
    const [aged] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from feed_changes where seq <= ${lastAged}`));
    expect(aged!.n).toBeGreaterThanOrEqual(4);
    // In batches of 3 (two at least); the fifth edit is kept.
    expect(await pruneFeedChanges(database.db, 3)).toBe(aged!.n);
    expect((await feedPosition(database.db)).prunedThrough).toBe(lastAged);
    expect((await changesAfter(lastAged)).changes.map((change) => change.seq)).toEqual([written[4]]);
    expect(await pruneFeedChanges(database.db, 3)).toBe(0);
  });
});
