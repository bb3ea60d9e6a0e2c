import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { ownershipClaims, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { Mailer } from "../mail/mailer.types";
import { serviceSecret } from "../shared/service-secrets";
import { assertOpenToSelfProof, completeProof, expireClaim, latestClaim, replacePendingClaim } from "./claim-rows";
import { listingContact, maskEmail } from "./listing-contact";

/*
 * Proving a listing by its email: a 6-digit code goes to the listing's own address, and whoever
 * reads that mailbox can enter it. A million codes and five tries make a guess a 1-in-200,000
 * chance per code, and codes per listing are limited (procedures/limits.ts). The code is stored as
 * an HMAC under a service secret, bound to the listing and the person: a copy of the claims table
 * alone cannot be searched for the code offline, and no code matches another's claim.
 */

export const EMAIL_CODE_TTL_MS = 30 * 60 * 1000;
export const EMAIL_CODE_TRIES = 5;
const CODE_SECRET = "ownership-codes";

async function hashCode(db: Db, params: { businessId: string; accountId: string; code: string }): Promise<string> {
  const secret = await serviceSecret(db, CODE_SECRET);
  return createHmac("sha256", secret).update(`email-code:${params.businessId}:${params.accountId}:${params.code}`).digest("hex");
}

export interface SentEmailCode {
  /** The listing's address as the page may show it: "o***@example.org". */
  sentTo: string;
  expiresAt: Date;
}

function mailText(params: { name: string; code: string }): string {
  return [
    `Someone signed in to the business directory asked to become the owner of the listing "${params.name}", which gives this address.`,
    "",
    `If that was you, enter this code on the claim page: ${params.code}`,
    "",
    "It is valid 30 minutes and can be tried 5 times. Never tell it to anyone who asks for it: whoever enters it becomes the listing's owner.",
    "If you did not ask for it, ignore this mail; nothing changes.",
  ].join("\n");
}

/**
 * Mails a new code to the listing's current email, replacing the person's earlier pending code for
 * the listing. Refused when the listing has an owner or no email. A mail that cannot be sent
 * leaves no code waiting.
 */
export async function sendEmailCode(
  db: Db,
  params: { businessId: string; accountId: string; agencyId?: string | null; mailer: Mailer; now: Date },
): Promise<SentEmailCode> {
  await assertOpenToSelfProof(db, params.businessId);
  const listing = await listingContact(db, params.businessId);
  if (!listing.email) throw new DomainError("CONFLICT", "This listing has no email address: prove it by its website, or ask for a review");
  const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
  const expiresAt = new Date(params.now.getTime() + EMAIL_CODE_TTL_MS);
  const secretHash = await hashCode(db, { ...params, code });
  const claimId = await replacePendingClaim(db, { ...params, method: "email", secretHash, expiresAt });
  try {
    await params.mailer.send({ to: listing.email, subject: `Your code to claim ${listing.name}`, text: mailText({ name: listing.name, code }) });
  } catch {
    await expireClaim(db, claimId, params.now);
    throw new DomainError("UNAVAILABLE", "The code could not be mailed just now; ask for a new one in a few minutes");
  }
  return { sentTo: maskEmail(listing.email), expiresAt };
}

/** The refusal of a code that can no longer be used, by what became of it. */
function spentCodeMessage(status: string | undefined): string {
  if (status === "verified") return "This code was already used: a code works once";
  if (status === "expired") return "This code has expired (after 30 minutes or 5 wrong tries): ask for a new one";
  return "No code is waiting for you for this listing: ask for one";
}

/**
 * Checks a code against the person's pending email claim for the listing. Each try is counted
 * before the code is compared, atomically, so no more than five are ever compared however many
 * arrive at once. Right: the claim is verified and the person becomes an owner, in one
 * transaction. Wrong: INVALID_INPUT saying how many tries are left; the fifth expires the code.
 */
export async function verifyEmailCode(db: Db, params: { businessId: string; accountId: string; code: string; now: Date }): Promise<void> {
  const claim = await latestClaim(db, { ...params, method: "email" });
  if (claim?.status !== "pending" || !claim.secretHash) throw new DomainError("CONFLICT", spentCodeMessage(claim?.status));
  if (!claim.expiresAt || claim.expiresAt <= params.now) {
    await expireClaim(db, claim.id, params.now);
    throw new DomainError("CONFLICT", spentCodeMessage("expired"));
  }
  const [tried] = await db
    .update(ownershipClaims)
    .set({ attempts: sql`${ownershipClaims.attempts} + 1` })
    .where(and(eq(ownershipClaims.id, claim.id), eq(ownershipClaims.status, "pending"), lt(ownershipClaims.attempts, EMAIL_CODE_TRIES)))
    .returning({ attempts: ownershipClaims.attempts });
  if (!tried) throw new DomainError("CONFLICT", spentCodeMessage("expired"));

  const expected = Buffer.from(claim.secretHash, "hex");
  const given = Buffer.from(await hashCode(db, params), "hex");
  if (given.length === expected.length && timingSafeEqual(given, expected)) {
    await completeProof(db, { claimId: claim.id, businessId: params.businessId, accountId: params.accountId, method: "email", now: params.now });
    return;
  }
  const left = EMAIL_CODE_TRIES - tried.attempts;
  if (left > 0) throw new DomainError("INVALID_INPUT", `Wrong code: ${left} ${left === 1 ? "try" : "tries"} left`);
  await expireClaim(db, claim.id, params.now);
  throw new DomainError("CONFLICT", "Wrong code, and no tries are left: this code has expired; ask for a new one");
}
