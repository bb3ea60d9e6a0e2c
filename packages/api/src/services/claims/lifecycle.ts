import { and, eq, inArray, ne } from "drizzle-orm";
import { businessColumns, businesses, slugHistory, type Business, type Db, type InactiveReason } from "@directory/db";
import { DomainError } from "../../errors";
import { isDecommissioned, requireBusinessBySlug, type BusinessRecord } from "../entities/business-lookup";
import { writeClaims } from "./claim-writes";
import { isUniqueViolation } from "../shared/db-errors";
import { recordEntityUpdated, recordEntityUpdates } from "./outbox";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The lifecycle state as admins see it. */
export function lifecycleSummary(business: BusinessRecord | Business) {
  return {
    id: business.id,
    slug: business.slug,
    name: business.name,
    status: business.status,
    subscriptionExpiresAt: business.subscriptionExpiresAt?.toISOString() ?? null,
    decommissioned: isDecommissioned(business),
    updatedAt: business.updatedAt.toISOString(),
  };
}

async function reload(tx: Db, id: string) {
  const [row] = await tx.select(businessColumns).from(businesses).where(eq(businesses.id, id));
  if (!row) throw new Error(`business ${id} vanished inside its own transaction`);
  return lifecycleSummary(row);
}

/*
 * Each transition reads the state it decides on under the business row lock (lockBusiness), so a
 * double-submitted request sees the first one's result and writes no second event.
 */

/** Which business (current or former slug), and when the change happens (now by default). */
export interface LifecycleParams {
  slug: string;
  at?: Date;
}

export interface ReactivateBusinessParams extends LifecycleParams {
  /** The renewed subscription's end; required when the subscription has run out. */
  renewUntil?: Date;
}

export interface RenameBusinessParams extends LifecycleParams {
  name: string;
}

export interface ChangeBusinessSlugParams extends LifecycleParams {
  newSlug: string;
}

/** Takes the row lock for the rest of the transaction and returns the row as it now is. */
export async function lockBusiness(tx: Db, id: string) {
  const [row] = await tx.select(businessColumns).from(businesses).where(eq(businesses.id, id)).for("update");
  if (!row) throw new Error(`business ${id} does not exist`);
  return row;
}

export interface InServiceOptions {
  /** Bringing back: only businesses out of service for this reason (an import never undoes an admin's decommission). */
  onlyReason?: InactiveReason;
  /** false: the caller writes the events (one per business with its other changes). */
  events?: boolean;
}

/**
 * Takes active businesses out of service (inactive, with the reason their 410 gives) or, with
 * reason null, brings inactive ones back; one entity.updated each that changed. Returns the ids
 * that changed.
 */
export async function setInService(
  tx: Db,
  ids: readonly string[],
  outOfService: InactiveReason | null,
  at: Date,
  options: InServiceOptions = {},
): Promise<string[]> {
  if (ids.length === 0) return [];
  const changed = await tx
    .update(businesses)
    .set({ status: outOfService ? "inactive" : "active", inactiveReason: outOfService, updatedAt: at })
    .where(
      and(
        inArray(businesses.id, [...ids]),
        eq(businesses.status, outOfService ? "active" : "inactive"),
        options.onlyReason ? eq(businesses.inactiveReason, options.onlyReason) : undefined,
      ),
    )
    .returning({ id: businesses.id, slug: businesses.slug });
  if (options.events !== false) {
    await recordEntityUpdates(
      tx,
      changed.map((row) => ({ businessId: row.id, slug: row.slug, change: "status" as const })),
      at,
    );
  }
  return changed.map((row) => row.id);
}

/** Takes a business out of search, the feed and agent.json; its profile answers 410. */
export async function decommissionBusiness(db: Db, params: LifecycleParams) {
  const { slug, at = new Date() } = params;
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    const current = await lockBusiness(tx, business.id);
    // A closed business is inactive already (out of every list, profile 200); decommissioning it
    // is the admin's stronger word: its reads answer 410 from now on.
    if (current.inactiveReason === "closed") {
      await tx.update(businesses).set({ inactiveReason: "decommissioned", updatedAt: at }).where(eq(businesses.id, business.id));
      await recordEntityUpdated(tx, { businessId: business.id, slug: business.slug, change: "status", at });
    } else await setInService(tx, [business.id], "decommissioned", at);
    return reload(tx, business.id);
  });
}

/**
 * Brings a business back. If its paid subscription has run out, the caller must say until when it
 * is renewed: reactivating without that would still answer 410.
 */
export async function reactivateBusiness(db: Db, params: ReactivateBusinessParams) {
  const { slug, renewUntil, at = new Date() } = params;
  if (renewUntil && renewUntil <= at) throw new DomainError("INVALID_INPUT", "Invalid parameter subscriptionExpiresAt: it must be in the future");
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    const current = await lockBusiness(tx, business.id);
    if (current.inactiveReason === "closed") {
      // Its operatingStatus claim says closed; reactivating the row alone would contradict it.
      throw new DomainError(
        "CONFLICT",
        `The business "${current.slug}" is permanently closed: accept a correction (or write an operatingStatus claim) saying it reopened`,
      );
    }
    const expired = current.subscriptionExpiresAt !== null && current.subscriptionExpiresAt <= at;
    if (expired && !renewUntil) {
      throw new DomainError(
        "CONFLICT",
        `The subscription of "${current.slug}" expired on ${current.subscriptionExpiresAt?.toISOString()}; pass a new subscriptionExpiresAt to reactivate it`,
      );
    }
    const changes = { status: "active" as const, inactiveReason: null, ...(renewUntil ? { subscriptionExpiresAt: renewUntil } : {}) };
    if (current.status !== "active" || renewUntil) {
      await tx
        .update(businesses)
        .set({ ...changes, updatedAt: at })
        .where(eq(businesses.id, business.id));
      await recordEntityUpdated(tx, { businessId: business.id, slug: business.slug, change: renewUntil ? "subscription" : "status", at });
    }
    return reload(tx, business.id);
  });
}

/** A rename is an admin-verified claim on the name; the id and slug stay. */
export async function renameBusiness(db: Db, params: RenameBusinessParams) {
  const { slug, name, at = new Date() } = params;
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    await writeClaims(
      tx,
      [{ business, claims: [{ property: "name", value: name, source: "admin:rename", confidence: 1, verification: "admin_verified" }] }],
      at,
    );
    return reload(tx, business.id);
  });
}

/** Moves a business to a new slug; the old one goes to slug history and keeps resolving. */
export async function changeBusinessSlug(db: Db, params: ChangeBusinessSlugParams) {
  const { slug, newSlug, at = new Date() } = params;
  if (!SLUG_PATTERN.test(newSlug)) {
    throw new DomainError("INVALID_INPUT", "Invalid parameter newSlug: lower-case letters, digits and single hyphens only");
  }
  const business = await requireBusinessBySlug(db, slug);
  const taken = () => new DomainError("CONFLICT", `The slug "${newSlug}" is already used by another business`);
  try {
    return await db.transaction(async (tx) => {
      const current = await lockBusiness(tx, business.id);
      if (current.slug === newSlug) return lifecycleSummary(current);
      const [takenNow] = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, newSlug));
      const [takenBefore] = await tx
        .select({ id: slugHistory.businessId })
        .from(slugHistory)
        .where(and(eq(slugHistory.slug, newSlug), ne(slugHistory.businessId, business.id)));
      if (takenNow || takenBefore) throw taken();
      // Reclaiming one of its own former slugs takes it out of history.
      await tx.delete(slugHistory).where(eq(slugHistory.slug, newSlug));
      await tx.insert(slugHistory).values({ slug: current.slug, businessId: business.id, retiredAt: at });
      await tx.update(businesses).set({ slug: newSlug, updatedAt: at }).where(eq(businesses.id, business.id));
      await recordEntityUpdated(tx, { businessId: business.id, slug: newSlug, change: "slug", at });
      return reload(tx, business.id);
    });
  } catch (error) {
    // Two businesses racing for one free slug: the unique index decides, the loser gets a 409.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}
