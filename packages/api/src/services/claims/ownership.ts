import { and, eq, isNull } from "drizzle-orm";
import { accounts, businesses, businessOwners, type Db, type OwnershipMethod } from "@directory/db";
import { DomainError } from "../../errors";
import { lockBusiness } from "./lifecycle";
import { recordEntityUpdated } from "./outbox";
import { normalizeEmail } from "../accounts/email-address";
import { revokeBusinessKeysHeldBy } from "../owner/business-keys";

/*
 * Who owns a listing, and the one place that changes it. Each change runs under the business row
 * lock in the caller's transaction, records who, when and by which proof in business_owners, and
 * keeps the listing's ownership in step (owner_verified while it has an owner) with one
 * entity.updated event, so webhooks, the change feed, search and profiles see it like any change.
 */

export interface AddOwnerParams {
  businessId: string;
  accountId: string;
  method: OwnershipMethod;
  /** "account:<id>" when the person proved it, "operator" for a review or the admin CLI. */
  decidedBy: string;
  at?: Date;
}

/** The listing's current owners (account ids). */
export async function activeOwnerIds(tx: Db, businessId: string): Promise<string[]> {
  const rows = await tx
    .select({ accountId: businessOwners.accountId })
    .from(businessOwners)
    .where(and(eq(businessOwners.businessId, businessId), isNull(businessOwners.removedAt)));
  return rows.map((row) => row.accountId);
}

/** Whether a person owns a listing now. */
export async function isOwner(db: Db, businessId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ accountId: businessOwners.accountId })
    .from(businessOwners)
    .where(and(eq(businessOwners.businessId, businessId), eq(businessOwners.accountId, accountId), isNull(businessOwners.removedAt)));
  return row !== undefined;
}

/**
 * Whether a listing may be claimed by proof alone (website or email): only while it has no owner.
 * A listing with an owner, or one an operator verified before owners were recorded, goes to review.
 */
export async function isOpenToSelfProof(tx: Db, businessId: string): Promise<boolean> {
  const [row] = await tx.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, businessId));
  return row?.ownership !== "owner_verified" && (await activeOwnerIds(tx, businessId)).length === 0;
}

/**
 * Makes a person an owner of a listing (in the caller's transaction), and the listing
 * owner_verified. Returns whether anything changed: an owner already is one, and writes nothing.
 */
export async function addOwner(tx: Db, params: AddOwnerParams): Promise<{ changed: boolean }> {
  const at = params.at ?? new Date();
  const row = await lockBusiness(tx, params.businessId);
  if (await isOwner(tx, row.id, params.accountId)) return { changed: false };
  await tx
    .insert(businessOwners)
    .values({ businessId: row.id, accountId: params.accountId, method: params.method, decidedBy: params.decidedBy, verifiedAt: at, removedAt: null })
    .onConflictDoUpdate({
      target: [businessOwners.businessId, businessOwners.accountId],
      set: { method: params.method, decidedBy: params.decidedBy, verifiedAt: at, removedAt: null },
    });
  if (row.ownership !== "owner_verified") await tx.update(businesses).set({ ownership: "owner_verified", updatedAt: at }).where(eq(businesses.id, row.id));
  await recordEntityUpdated(tx, { businessId: row.id, slug: row.slug, change: "ownership", at });
  return { changed: true };
}

/**
 * Removes an owner (an operator's decision, or a co-owner's), and revokes the business keys they took. The listing turns unclaimed when its last owner goes,
 * and so leaves the partner feed as an operator's unverify-owner does.
 */
export async function removeOwner(tx: Db, params: { businessId: string; email: string; at?: Date }): Promise<{ remainingOwners: number }> {
  const at = params.at ?? new Date();
  const row = await lockBusiness(tx, params.businessId);
  const [account] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(params.email)));
  const removed = account
    ? await tx
        .update(businessOwners)
        .set({ removedAt: at })
        .where(and(eq(businessOwners.businessId, row.id), eq(businessOwners.accountId, account.id), isNull(businessOwners.removedAt)))
        .returning({ accountId: businessOwners.accountId })
    : [];
  if (removed.length === 0 || !account) throw new DomainError("NOT_FOUND", `${params.email} is not an owner of ${row.slug}`);
  // The business keys they took for the listing go with them.
  await revokeBusinessKeysHeldBy(tx, { businessId: row.id, holderAccountId: account.id, at });
  const remainingOwners = (await activeOwnerIds(tx, row.id)).length;
  if (remainingOwners === 0 && row.ownership === "owner_verified") {
    await tx.update(businesses).set({ ownership: "unclaimed", updatedAt: at }).where(eq(businesses.id, row.id));
  }
  await recordEntityUpdated(tx, { businessId: row.id, slug: row.slug, change: "ownership", at });
  return { remainingOwners };
}
