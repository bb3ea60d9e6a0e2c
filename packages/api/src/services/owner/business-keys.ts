import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, businesses, type Db } from "@directory/db";
import { activeHeldKeys, createHeldKey, heldKeyView, revokeHeldKey, type HeldKeyView } from "../access/held-keys";

/** Active business keys a listing holds at once: one per agent or environment, bounded like every list. */
export const BUSINESS_KEYS_MAX = 10;

const businessKeysOf = (businessId: string) => and(eq(apiKeys.businessId, businessId), eq(apiKeys.kind, "business"));

/** The listing's active business keys (made on a dashboard or by an operator), oldest first: never the keys or their hashes. */
export async function listBusinessKeys(db: Db, businessId: string): Promise<HeldKeyView[]> {
  return (await activeHeldKeys(db, businessKeysOf(businessId), BUSINESS_KEYS_MAX)).map(heldKeyView);
}

/** Makes a business key for the listing, held by `holderAccountId`, and returns its plaintext: the only time anybody sees it. */
export async function createBusinessKey(db: Db, params: { businessId: string; holderAccountId: string; label: string }): Promise<{ id: string; key: string }> {
  return db.transaction(async (tx) => {
    // The listing's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, params.businessId)).for("update");
    return createHeldKey(tx, {
      kind: "business",
      accountId: params.holderAccountId,
      businessId: params.businessId,
      label: params.label,
      held: businessKeysOf(params.businessId),
      max: BUSINESS_KEYS_MAX,
      capReached: `A listing holds at most ${BUSINESS_KEYS_MAX} active business keys`,
    });
  });
}

/** Revokes one of the listing's business keys; a key of another listing is "not found", never touched. */
export async function revokeBusinessKey(db: Db, params: { businessId: string; keyId: string }): Promise<void> {
  await revokeHeldKey(db, and(eq(apiKeys.id, params.keyId), businessKeysOf(params.businessId)), `No business key ${params.keyId} of this listing`);
}

/** Revokes the listing's keys a holder took (an owner removed, an agency's access withdrawn), in the caller's transaction. */
export async function revokeBusinessKeysHeldBy(tx: Db, params: { businessId: string; holderAccountId: string; at: Date }): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: params.at })
    .where(and(eq(apiKeys.businessId, params.businessId), eq(apiKeys.accountId, params.holderAccountId), isNull(apiKeys.revokedAt)));
}
