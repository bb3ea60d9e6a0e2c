import { and, eq, isNull } from "drizzle-orm";
import { businesses, claims, type ClaimProperty, type Db, type OwnerEditableProperty } from "@directory/db";
import { DomainError } from "../../errors";
import { requireBusinessBySlug } from "../entities/business-lookup";
import { requireCityToWrite } from "../search/resolve";
import { createBusinesses } from "./business-creation";
import { listClaims, toPublicClaim } from "./claims";
import { writeClaims } from "./claim-writes";
import { lockBusiness } from "./lifecycle";
import { recordEntityUpdated } from "./outbox";

/*
 * What only an admin decides: that a value is true (admin_verified), that the owner is who they
 * say (ownership owner_verified), and that a business exists (business add). Each runs in one
 * transaction under the business row lock and writes through the one claim write path.
 */

export const ADMIN_VERIFY_SOURCE = "admin:verify";
export const ADMIN_ADD_SOURCE = "admin:add";

export interface VerifyClaimParams {
  slug: string;
  property: ClaimProperty;
  at?: Date;
}

async function currentClaim(tx: Db, businessId: string, property: ClaimProperty) {
  const [claim] = await tx
    .select()
    .from(claims)
    .where(and(eq(claims.businessId, businessId), eq(claims.property, property), isNull(claims.supersededAt)));
  return claim ?? null;
}

/**
 * Makes the current value of a property admin-verified: a new claim with the same value, source
 * admin:verify, confidence 1, superseding the current one, so history shows who said it first.
 * A value already admin-verified is left as it is (verified: false, nothing written).
 */
export async function verifyClaim(db: Db, params: VerifyClaimParams) {
  const { slug, property, at = new Date() } = params;
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    await lockBusiness(tx, business.id);
    const current = await currentClaim(tx, business.id, property);
    if (!current) {
      throw new DomainError("CONFLICT", `The business "${business.slug}" has no current ${property} claim: there is no value to verify`, { property });
    }
    if (current.verification === "admin_verified") {
      return { slug: business.slug, property, verified: false, claim: toPublicClaim(current), previous: null };
    }
    const written = await writeClaims(
      tx,
      [
        {
          business: { id: business.id, slug: business.slug },
          claims: [{ property, value: current.value, source: ADMIN_VERIFY_SOURCE, confidence: 1, verification: "admin_verified" }],
        },
      ],
      at,
    );
    const verified = await currentClaim(tx, business.id, property);
    if (!written.get(business.id)?.changed.includes(property) || verified?.verification !== "admin_verified") {
      throw new Error(`verifyClaim: the write path did not make the ${property} of ${business.slug} admin-verified`);
    }
    const [previous] = await tx.select().from(claims).where(eq(claims.id, current.id));
    return { slug: business.slug, property, verified: true, claim: toPublicClaim(verified), previous: previous ? toPublicClaim(previous) : null };
  });
}

/**
 * Marks the owner as verified: the listing turns owner_verified (and so enters the partner feed).
 * Idempotent: a listing already owner-verified is left as it is and no event is written.
 */
export async function verifyOwner(db: Db, params: { slug: string; at?: Date }) {
  const { slug, at = new Date() } = params;
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    const row = await lockBusiness(tx, business.id);
    const changed = row.ownership !== "owner_verified";
    if (changed) {
      await tx.update(businesses).set({ ownership: "owner_verified", updatedAt: at }).where(eq(businesses.id, row.id));
      await recordEntityUpdated(tx, { businessId: row.id, slug: row.slug, change: "ownership", at });
    }
    return { id: row.id, slug: row.slug, name: row.name, ownership: "owner_verified" as const, changed };
  });
}

/**
 * The inverse of verifyOwner: the listing turns unclaimed and leaves the partner feed (a remove
 * no_longer_verified). Idempotent: a listing not owner-verified is left as it is, no event.
 */
export async function unverifyOwner(db: Db, params: { slug: string; at?: Date }) {
  const { slug, at = new Date() } = params;
  const business = await requireBusinessBySlug(db, slug);
  return db.transaction(async (tx) => {
    const row = await lockBusiness(tx, business.id);
    const changed = row.ownership === "owner_verified";
    if (changed) {
      await tx.update(businesses).set({ ownership: "unclaimed", updatedAt: at }).where(eq(businesses.id, row.id));
      await recordEntityUpdated(tx, { businessId: row.id, slug: row.slug, change: "ownership", at });
    }
    return { id: row.id, slug: row.slug, name: row.name, ownership: "unclaimed" as const, changed };
  });
}

export type NewBusinessFacts = { name: string; category: string; city: string } & Partial<Record<OwnerEditableProperty, unknown>>;

/**
 * Creates a business from an admin's facts (admin-verified claims: the admin states them), through
 * createBusinesses: the same validation as every write, unclaimed until an admin verifies an owner.
 */
export async function addBusiness(db: Db, params: { facts: NewBusinessFacts; label?: string; at?: Date }) {
  const { at = new Date() } = params;
  // The city as search reads it (name, alias or slug, with or without ", CC"); its claim holds the slug.
  const facts = { ...params.facts, city: (await requireCityToWrite(db, params.facts.city)).slug };
  const newClaims = Object.entries(facts)
    .filter(([, value]) => value !== undefined)
    .map(([property, value]) => ({
      property: property as ClaimProperty,
      value,
      source: ADMIN_ADD_SOURCE,
      confidence: 1,
      verification: "admin_verified" as const,
    }));
  return db.transaction(async (tx) => {
    const [created] = await createBusinesses(tx, [{ label: params.label ?? "the new business", claims: newClaims }], at);
    if (!created) throw new Error("createBusinesses returned no business");
    const current = await listClaims(tx, { businessId: created.id, history: false });
    return { id: created.id, slug: created.slug, ownership: "unclaimed" as const, claims: current.map(toPublicClaim) };
  });
}
