import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, businesses, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { generateApiKey, hashApiKey, visiblePrefixOf } from "../access/api-key-format";

/** Active business keys a listing holds at once: one per agent or environment, bounded like every list. */
export const BUSINESS_KEYS_MAX = 10;

/** A business key as the listing's managers see it: never the key or its hash. */
export interface BusinessKeyView {
  id: string;
  label: string;
  visiblePrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The listing's active business keys (made on a dashboard or by an operator), oldest first. */
export async function listBusinessKeys(db: Db, businessId: string): Promise<BusinessKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.kind, "business"), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .limit(BUSINESS_KEYS_MAX);
  return rows.map((row) => ({
    id: row.id,
    label: row.label ?? "",
    visiblePrefix: row.visiblePrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Makes a business key for the listing, held by `holderAccountId`, and returns its plaintext: the only time anybody sees it. */
export async function createBusinessKey(db: Db, params: { businessId: string; holderAccountId: string; label: string }): Promise<{ id: string; key: string }> {
  return db.transaction(async (tx) => {
    // The listing's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, params.businessId)).for("update");
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.businessId, params.businessId), eq(apiKeys.kind, "business"), isNull(apiKeys.revokedAt)));
    if ((active?.n ?? 0) >= BUSINESS_KEYS_MAX) {
      throw new DomainError("CONFLICT", `A listing holds at most ${BUSINESS_KEYS_MAX} active business keys: revoke one first`);
    }
    const key = generateApiKey("business");
    const [row] = await tx
      .insert(apiKeys)
      .values({
        kind: "business",
        businessId: params.businessId,
        accountId: params.holderAccountId,
        label: params.label,
        keyHash: hashApiKey(key),
        visiblePrefix: visiblePrefixOf(key),
      })
      .returning({ id: apiKeys.id });
    if (!row) throw new Error("insert into api_keys returned no row");
    return { id: row.id, key };
  });
}

/** Revokes one of the listing's business keys; a key of another listing is "not found", never touched. */
export async function revokeBusinessKey(db: Db, params: { businessId: string; keyId: string }): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, params.keyId), eq(apiKeys.businessId, params.businessId), eq(apiKeys.kind, "business")))
    .returning({ id: apiKeys.id });
  if (!row) throw new DomainError("NOT_FOUND", `No business key ${params.keyId} of this listing`);
}

/** Revokes the listing's keys a holder took (an owner removed, an agency's access withdrawn), in the caller's transaction. */
export async function revokeBusinessKeysHeldBy(tx: Db, params: { businessId: string; holderAccountId: string; at: Date }): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: params.at })
    .where(and(eq(apiKeys.businessId, params.businessId), eq(apiKeys.accountId, params.holderAccountId), isNull(apiKeys.revokedAt)));
}
