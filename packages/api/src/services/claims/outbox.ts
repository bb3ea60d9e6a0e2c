import { outboxEvents, type Db } from "@directory/db";

export type EntityChange = "claims" | "status" | "slug" | "subscription";

/**
 * Writes an entity.updated event. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does.
 */
export async function recordEntityUpdated(
  tx: Db,
  params: { businessId: string; slug: string; change: EntityChange; properties?: string[]; at: Date },
): Promise<void> {
  await tx.insert(outboxEvents).values({
    eventType: "entity.updated",
    businessId: params.businessId,
    payload: {
      event: "entity.updated",
      businessId: params.businessId,
      slug: params.slug,
      change: params.change,
      properties: params.properties ?? [],
      occurredAt: params.at.toISOString(),
    },
    createdAt: params.at,
  });
}
