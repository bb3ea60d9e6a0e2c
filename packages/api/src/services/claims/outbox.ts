import { sql } from "drizzle-orm";
import { outboxEvents, type Db } from "@directory/db";
import { recordFeedChanges } from "../feed/feed-documents";

/** What changed: claims (facts), status (in or out of service), slug, subscription, ownership (an admin verified the owner), or a new business. */
export type EntityChange = "claims" | "status" | "slug" | "subscription" | "ownership" | "created";

export interface EntityUpdate {
  businessId: string;
  slug: string;
  change: EntityChange;
  properties?: readonly string[];
}

/**
 * Writes one entity.updated event per update, and the partner change feed's entry for each
 * (recordFeedChanges: an upsert, or a remove when the business left the feed). Call it with the
 * transaction that makes the change, so the event exists exactly when the change does.
 */
export async function recordEntityUpdates(tx: Db, updates: readonly EntityUpdate[], at: Date): Promise<void> {
  if (updates.length === 0) return;
  const occurredAt = at.toISOString();
  const payloads = updates.map((update) => ({
    event: "entity.updated",
    businessId: update.businessId,
    slug: update.slug,
    change: update.change,
    properties: [...(update.properties ?? [])],
    occurredAt,
  }));
  // One JSON parameter for the whole batch: an import writes thousands in one statement.
  await tx.execute(sql`
    insert into ${outboxEvents} (event_type, business_id, payload, created_at)
    select 'entity.updated', (p ->> 'businessId')::uuid, p, ${occurredAt}::timestamptz
    from jsonb_array_elements(${JSON.stringify(payloads)}::jsonb) as p`);
  await recordFeedChanges(
    tx,
    updates.map((update) => update.businessId),
    at,
  );
}

export async function recordEntityUpdated(tx: Db, params: EntityUpdate & { at: Date }): Promise<void> {
  await recordEntityUpdates(tx, [params], params.at);
}
