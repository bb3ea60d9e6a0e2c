import { OWNER_EDITABLE_PROPERTIES, type Db, type OwnerEditableProperty } from "@directory/db";
import { DomainError } from "../../errors";
import { listClaims, toPublicClaim } from "../claims/claims";
import { parseClaimValue, sameClaimValue } from "../claims/claim-values";
import { writeClaims, type NewClaim } from "../claims/claim-writes";
import { lockBusiness } from "../claims/lifecycle";
import { isDecommissioned } from "../entities/business-lookup";
import type { BusinessActor } from "./business-managers";

/**
 * What an owner states about their own listing is self-reported, whatever the listing's ownership:
 * only an admin verifying the owner (admin.verifyOwner) turns it owner_verified, and only an admin
 * verifying a value (admin.verifyClaim) makes that value admin_verified.
 */
export const OWNER_EDIT_CONFIDENCE = 0.8;

/**
 * Traceable to who wrote it: the key (its id, which is not the secret, never the key itself), or
 * the signed-in person's account (an agency member's edit names their own account, not the agency's).
 */
export function ownerEditSource(actor: BusinessActor): string {
  return actor.kind === "key" ? `owner:key-${actor.keyId}` : `owner:account-${actor.manager.accountId}`;
}

export interface UpdateOwnListingParams {
  /** The business the key is bound to, or the one the signed-in manager named: the only one it may change. */
  businessId: string;
  /** ownerEditSource of who writes. */
  source: string;
  changes: Partial<Record<OwnerEditableProperty, unknown>>;
  at?: Date;
}

/**
 * Writes the owner's changes as self-reported claims through the one claim write path, in one
 * transaction under the business row lock, and answers the listing's current claims afterwards.
 * A listing out of service answers 410 like every read of it: nothing is written to a profile
 * nobody can see (an admin reactivates it first).
 */
export async function updateOwnListing(db: Db, params: UpdateOwnListingParams) {
  const { businessId, source, changes, at = new Date() } = params;
  const properties = OWNER_EDITABLE_PROPERTIES.filter((property) => changes[property] !== undefined);
  if (properties.length === 0) {
    throw new DomainError("INVALID_INPUT", `Nothing to change: name at least one of ${OWNER_EDITABLE_PROPERTIES.join(", ")}`);
  }
  return db.transaction(async (tx) => {
    const business = await lockBusiness(tx, businessId);
    if (isDecommissioned(business, at)) {
      throw new DomainError("ENTITY_DECOMMISSIONED", `The business "${business.slug}" is out of service; its listing cannot be edited until it is reactivated`);
    }
    const before = await listClaims(tx, { businessId: business.id, history: false });
    // Repeating a value an admin verified states nothing new: it stays admin-verified, not demoted to self-reported.
    const verified = new Map(before.filter((claim) => claim.verification === "admin_verified").map((claim) => [claim.property, claim.value]));
    const stated = properties.filter(
      (property) => !(verified.has(property) && sameClaimValue(verified.get(property), parseClaimValue(property, changes[property]))),
    );
    const claims: NewClaim[] = stated.map((property) => ({
      property,
      value: changes[property],
      source,
      confidence: OWNER_EDIT_CONFIDENCE,
      verification: "self_reported",
    }));
    const written = await writeClaims(tx, [{ business: { id: business.id, slug: business.slug }, claims }], at);
    const result = written.get(business.id) ?? { recorded: [], changed: [] };
    const current = await listClaims(tx, { businessId: business.id, history: false });
    return {
      business: { id: business.id, slug: business.slug, name: business.name, ownership: business.ownership },
      recorded: result.recorded,
      changed: result.changed,
      claims: current.map(toPublicClaim),
    };
  });
}
