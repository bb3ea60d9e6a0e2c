import { and, asc, eq, isNull } from "drizzle-orm";
import { accounts, businessOwners, type Db, type OwnershipMethod } from "@directory/db";
import { DomainError } from "../../errors";
import { normalizeEmail } from "../accounts/email-address";
import { ensureAccount } from "../accounts/plans";
import { activeOwnerIds, addOwner, removeOwner } from "../claims/ownership";
import { lockBusiness } from "../claims/lifecycle";
import type { Mailer } from "../mail/mailer.types";

/** Owners one listing holds at once. */
export const LISTING_OWNERS_MAX = 20;

export interface CoOwnerView {
  email: string;
  method: OwnershipMethod;
  since: string;
}

/** The listing's owners, earliest first. */
export async function listCoOwners(db: Db, businessId: string): Promise<CoOwnerView[]> {
  const rows = await db
    .select({ email: accounts.email, method: businessOwners.method, since: businessOwners.verifiedAt })
    .from(businessOwners)
    .innerJoin(accounts, eq(accounts.id, businessOwners.accountId))
    .where(and(eq(businessOwners.businessId, businessId), isNull(businessOwners.removedAt)))
    .orderBy(asc(businessOwners.verifiedAt), asc(accounts.email))
    .limit(LISTING_OWNERS_MAX);
  return rows.map((row) => ({ email: row.email, method: row.method as OwnershipMethod, since: row.since.toISOString() }));
}

/**
 * An owner makes another person an owner (by address; their account is made if they have none)
 * through the one ownership write path, and mails them. The mail goes last inside the
 * transaction: if it cannot be sent, nobody is added.
 */
export async function inviteCoOwner(
  db: Db,
  params: { businessId: string; email: string; invitedBy: string; mailer: Mailer; publicBaseUrl: string },
): Promise<CoOwnerView> {
  return db.transaction(async (tx) => {
    const listing = await lockBusiness(tx, params.businessId);
    if ((await activeOwnerIds(tx, listing.id)).length >= LISTING_OWNERS_MAX) {
      throw new DomainError("CONFLICT", `A listing has at most ${LISTING_OWNERS_MAX} owners`);
    }
    const person = await ensureAccount(tx, params.email);
    const { changed } = await addOwner(tx, { businessId: listing.id, accountId: person.id, method: "invitation", decidedBy: `account:${params.invitedBy}` });
    if (!changed) throw new DomainError("CONFLICT", `${person.email} already owns ${listing.slug}`);
    await params.mailer.send({
      to: person.email,
      subject: `You are now an owner of ${listing.name}`,
      text:
        `An owner of ${listing.name} added you as a co-owner of its listing on the business directory.\n\n` +
        `Sign in with this address to manage it: ${params.publicBaseUrl}/dashboard/business/${listing.slug}\n`,
    });
    return { email: person.email, method: "invitation", since: new Date().toISOString() };
  });
}

/** An owner removes another owner; the last owner stays (an operator removes it: `business remove-owner`). */
export async function removeCoOwner(db: Db, params: { businessId: string; email: string }): Promise<{ remainingOwners: number }> {
  return db.transaction(async (tx) => {
    const listing = await lockBusiness(tx, params.businessId);
    const owners = await activeOwnerIds(tx, listing.id);
    const [person] = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.email, normalizeEmail(params.email)));
    if (!person || !owners.includes(person.id)) throw new DomainError("NOT_FOUND", `${params.email} is not an owner of ${listing.slug}`);
    if (owners.length === 1) throw new DomainError("CONFLICT", "A listing keeps at least one owner; an operator can remove the last one");
    return removeOwner(tx, { businessId: listing.id, email: params.email });
  });
}
