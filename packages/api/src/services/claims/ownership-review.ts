import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { accounts, agencies, businesses, businessOwners, ownershipClaims, type Db, type OwnershipClaimStatus, type OwnershipMethod } from "@directory/db";
import { DomainError } from "../../errors";
import { requireBusinessBySlug } from "../entities/business-lookup";
import { isUuid } from "../shared/ids";
import { addOwner, removeOwner } from "./ownership";
import { normalizeEmail } from "../accounts/email-address";
import { grantAccessToClaimingAgency } from "../ownership/agency-claims";

/*
 * The operator's side of ownership: the queue of claims by review, an operator's decision on each,
 * and a listing's owners. Every change of owners goes through ownership.ts (addOwner, removeOwner),
 * so it runs under the business lock with its one entity.updated event.
 */

/** Who decides here: the admin CLI's operator (business_owners.decidedBy and ownership_claims.decidedBy). */
export const OPERATOR = "operator";
/** An operator reads at most this many claims at once. */
export const OWNERSHIP_CLAIMS_LISTED_MAX = 200;

export interface OwnershipClaimSummary {
  id: string;
  business: { slug: string; name: string };
  /** The claimant's address (their account's). */
  email: string;
  method: OwnershipMethod;
  status: OwnershipClaimStatus;
  evidence: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  /** The agency the claim is made for (it gets access when the claim succeeds); null for a claim for oneself. */
  agencySlug: string | null;
}

export interface ListOwnershipClaimsParams {
  status?: OwnershipClaimStatus;
  limit?: number;
}

const claimColumns = {
  id: ownershipClaims.id,
  slug: businesses.slug,
  name: businesses.name,
  email: accounts.email,
  method: ownershipClaims.method,
  status: ownershipClaims.status,
  evidence: ownershipClaims.evidence,
  createdAt: ownershipClaims.createdAt,
  decidedAt: ownershipClaims.decidedAt,
  decidedBy: ownershipClaims.decidedBy,
  agencySlug: agencies.slug,
};

function selectClaims(db: Db) {
  return db
    .select(claimColumns)
    .from(ownershipClaims)
    .innerJoin(businesses, eq(businesses.id, ownershipClaims.businessId))
    .innerJoin(accounts, eq(accounts.id, ownershipClaims.accountId))
    .leftJoin(agencies, eq(agencies.id, ownershipClaims.agencyId));
}

type ClaimRow = Awaited<ReturnType<typeof selectClaims>>[number];

function summarise(row: ClaimRow): OwnershipClaimSummary {
  return {
    id: row.id,
    business: { slug: row.slug, name: row.name },
    email: row.email,
    method: row.method as OwnershipMethod,
    status: row.status as OwnershipClaimStatus,
    evidence: row.evidence,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: row.decidedBy,
    agencySlug: row.agencySlug,
  };
}

/**
 * Claims of one status (pending by default), every method. The pending queue is served oldest
 * first, so whoever waited longest is read first; decided ones newest decision first.
 */
export async function listOwnershipClaims(db: Db, params: ListOwnershipClaimsParams = {}): Promise<OwnershipClaimSummary[]> {
  const status = params.status ?? "pending";
  const limit = Math.min(params.limit ?? 100, OWNERSHIP_CLAIMS_LISTED_MAX);
  const order =
    status === "pending"
      ? [asc(ownershipClaims.createdAt), asc(ownershipClaims.id)]
      : [sql`${ownershipClaims.decidedAt} desc nulls last`, desc(ownershipClaims.createdAt), asc(ownershipClaims.id)];
  const rows = await selectClaims(db)
    .where(eq(ownershipClaims.status, status))
    .orderBy(...order)
    .limit(limit);
  return rows.map(summarise);
}

async function requireClaim(db: Db, id: string): Promise<OwnershipClaimSummary> {
  // Checked here so a malformed id is a plain "not found", not a database cast error.
  const [row] = isUuid(id) ? await selectClaims(db).where(eq(ownershipClaims.id, id.toLowerCase())) : [];
  if (!row) throw new DomainError("NOT_FOUND", `No ownership claim ${id}`);
  return summarise(row);
}

/** Why a claim cannot be decided now; the caller has found it and it is not pending. */
function notPending(claim: OwnershipClaimSummary): DomainError {
  return new DomainError(
    "CONFLICT",
    `The claim ${claim.id} is ${claim.status}${claim.decidedAt ? ` since ${claim.decidedAt}` : ""}: only a pending claim is decided`,
    {
      status: claim.status,
    },
  );
}

/**
 * Approves a pending claim by review: in one transaction the claim turns approved and the
 * claimant an owner (method review, decided by the operator), the listing owner_verified. Only
 * reviews: a website or email claim is proved by its token or code, never by an operator's word.
 * A disabled account is not made an owner.
 */
export async function approveOwnershipClaim(db: Db, params: { id: string; at?: Date }): Promise<OwnershipClaimSummary> {
  const at = params.at ?? new Date();
  const claim = await requireClaim(db, params.id);
  if (claim.method !== "review") {
    throw new DomainError("CONFLICT", `The claim ${claim.id} is by ${claim.method}: only a claim by review is approved by an operator`, {
      method: claim.method,
    });
  }
  await db.transaction(async (tx) => {
    // The status condition makes a second approval (or a racing reject) find nothing to change.
    const [decided] = await tx
      .update(ownershipClaims)
      .set({ status: "approved", decidedAt: at, decidedBy: OPERATOR })
      .where(and(eq(ownershipClaims.id, claim.id), eq(ownershipClaims.status, "pending")))
      .returning({ businessId: ownershipClaims.businessId, accountId: ownershipClaims.accountId, agencyId: ownershipClaims.agencyId });
    if (!decided) throw notPending(await requireClaim(tx, claim.id));
    const [account] = await tx.select({ disabledAt: accounts.disabledAt }).from(accounts).where(eq(accounts.id, decided.accountId));
    if (account?.disabledAt) throw new DomainError("CONFLICT", `The account of ${claim.email} is disabled: it is not made an owner`);
    await addOwner(tx, { businessId: decided.businessId, accountId: decided.accountId, method: "review", decidedBy: OPERATOR, at });
    await grantAccessToClaimingAgency(tx, decided);
  });
  return requireClaim(db, claim.id);
}

/**
 * Rejects a pending claim of any method (an operator may stop a website or email claim too): it
 * turns rejected, and no owner changes. There is no column for a reason, so none is taken.
 */
export async function rejectOwnershipClaim(db: Db, params: { id: string; at?: Date }): Promise<OwnershipClaimSummary> {
  const at = params.at ?? new Date();
  const claim = await requireClaim(db, params.id);
  const [decided] = await db
    .update(ownershipClaims)
    .set({ status: "rejected", decidedAt: at, decidedBy: OPERATOR })
    .where(and(eq(ownershipClaims.id, claim.id), eq(ownershipClaims.status, "pending")))
    .returning({ id: ownershipClaims.id });
  if (!decided) throw notPending(await requireClaim(db, claim.id));
  return requireClaim(db, claim.id);
}

export interface ListingOwner {
  email: string;
  method: OwnershipMethod;
  decidedBy: string;
  verifiedAt: string;
  /** Null for a current owner; set for a removed one (listed with `all`). */
  removedAt: string | null;
}

/** A listing's current owners, first verified first; with `all`, its removed owners too. */
export async function listOwners(
  db: Db,
  params: { slug: string; all?: boolean },
): Promise<{ slug: string; name: string; ownership: string; owners: ListingOwner[] }> {
  const business = await requireBusinessBySlug(db, params.slug);
  const rows = await db
    .select({
      email: accounts.email,
      method: businessOwners.method,
      decidedBy: businessOwners.decidedBy,
      verifiedAt: businessOwners.verifiedAt,
      removedAt: businessOwners.removedAt,
    })
    .from(businessOwners)
    .innerJoin(accounts, eq(accounts.id, businessOwners.accountId))
    .where(and(eq(businessOwners.businessId, business.id), params.all ? undefined : isNull(businessOwners.removedAt)))
    .orderBy(asc(businessOwners.verifiedAt), asc(accounts.email));
  const owners = rows.map((row) => ({
    email: row.email,
    method: row.method as OwnershipMethod,
    decidedBy: row.decidedBy,
    verifiedAt: row.verifiedAt.toISOString(),
    removedAt: row.removedAt?.toISOString() ?? null,
  }));
  return { slug: business.slug, name: business.name, ownership: business.ownership, owners };
}

/**
 * Removes an owner of a listing (current or former slug), in one transaction through removeOwner:
 * the listing turns unclaimed when its last owner goes. NOT_FOUND when the address owns it not.
 */
export async function removeOwnerOf(
  db: Db,
  params: { slug: string; email: string; at?: Date },
): Promise<{ slug: string; email: string; remainingOwners: number; ownership: string }> {
  const business = await requireBusinessBySlug(db, params.slug);
  const email = normalizeEmail(params.email);
  const { remainingOwners } = await db.transaction((tx) => removeOwner(tx, { businessId: business.id, email, at: params.at }));
  const [row] = await db.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, business.id));
  return { slug: business.slug, email, remainingOwners, ownership: row?.ownership ?? business.ownership };
}
