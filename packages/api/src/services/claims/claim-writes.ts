import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { businessColumns, businesses, claims, type ClaimVerification, type Db, type NewBusiness } from "@directory/db";
import { DomainError } from "../../errors";
import { recordEntityUpdated } from "./outbox";

/** The listing columns a claim may set: the flat fields are the projection of current claims. */
const CLAIM_COLUMNS = {
  name: "name",
  phone: "phone",
  website: "website",
  email: "email",
  address: "address",
  description: "description",
  services: "services",
  usp: "usp",
  tagline: "tagline",
  keywords: "keywords",
  openingHours: "openingHours",
} as const satisfies Record<string, keyof NewBusiness>;

export type ClaimProperty = keyof typeof CLAIM_COLUMNS;
export const CLAIM_PROPERTIES = Object.keys(CLAIM_COLUMNS) as ClaimProperty[];

export interface NewClaim {
  property: ClaimProperty;
  value: unknown;
  source: string;
  confidence: number;
  verification: ClaimVerification;
}

/** A website is an http(s) URL (or none): a javascript: or data: link never reaches an agent or a page. */
export function assertWebsite(value: unknown): void {
  if (value === null) return;
  let url: URL | null = null;
  try {
    url = typeof value === "string" ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    throw new DomainError("INVALID_INPUT", "Invalid website: it must be an http:// or https:// URL");
  }
}

const CLAIM_VALIDATORS: Partial<Record<ClaimProperty, (value: unknown) => void>> = { website: assertWebsite };

/** Takes the business row lock for the rest of the transaction and returns the row as it now is. */
export async function lockBusiness(tx: Db, id: string) {
  const [row] = await tx.select(businessColumns).from(businesses).where(eq(businesses.id, id)).for("update");
  if (!row) throw new Error(`business ${id} does not exist`);
  return row;
}

export interface RecordClaimsParams {
  business: { id: string; slug: string };
  newClaims: NewClaim[];
  /** When the claims were observed; now by default. */
  at?: Date;
}

/**
 * Records new facts about a business in the caller's transaction: each supersedes the current
 * claim on its property (kept for history), the listing column is updated to match, and one
 * entity.updated event is written. A value equal to the current one is not a change.
 */
export async function recordClaims(tx: Db, params: RecordClaimsParams): Promise<string[]> {
  const { business, newClaims, at = new Date() } = params;
  // Claim writers for one business queue on its row, so two never both supersede the same claim.
  for (const claim of newClaims) CLAIM_VALIDATORS[claim.property]?.(claim.value);
  await lockBusiness(tx, business.id);
  const changed: string[] = [];
  const columns: Partial<NewBusiness> = {};
  for (const claim of newClaims) {
    const [current] = await tx
      .select({ id: claims.id, value: claims.value })
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.property, claim.property), isNull(claims.supersededAt)));
    if (current && JSON.stringify(current.value) === JSON.stringify(claim.value)) continue;
    const id = randomUUID();
    // Three steps because the partial unique index allows one current claim per property, and
    // superseded_by must reference a row that already exists.
    if (current) await tx.update(claims).set({ supersededAt: at }).where(eq(claims.id, current.id));
    await tx.insert(claims).values({ id, businessId: business.id, ...claim, observedAt: at });
    if (current) await tx.update(claims).set({ supersededBy: id }).where(eq(claims.id, current.id));
    Object.assign(columns, { [CLAIM_COLUMNS[claim.property]]: claim.value });
    changed.push(claim.property);
  }
  if (changed.length === 0) return changed;
  await tx
    .update(businesses)
    .set({ ...columns, updatedAt: at })
    .where(eq(businesses.id, business.id));
  await recordEntityUpdated(tx, { businessId: business.id, slug: business.slug, change: "claims", properties: changed, at });
  return changed;
}
