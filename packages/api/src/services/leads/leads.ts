import { createHash, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { businesses, leadConsents, leads, outboxEvents, type Db, type LeadStatus } from "@directory/db";
import { DomainError } from "../../errors";
import { clientBucketOf } from "../access/client-ip";
import { requireServableBySlug } from "../entities/business-lookup";
import { isUuid } from "../shared/ids";
import { isUniqueViolation } from "../shared/db-errors";

/** Who may move a lead where: the owning business, forward only. */
export const NEXT_STATUSES: Record<LeadStatus, readonly LeadStatus[]> = {
  new: ["contacted", "rejected"],
  contacted: ["won", "lost"],
  won: [],
  lost: [],
  rejected: [],
};

export interface SubmitLeadParams {
  slug: string;
  contactName: string;
  contactEmail?: string;
  contactPhone?: string;
  message: string;
  idempotencyKey: string;
  consent: { statementShownToUser: string; consentedAt?: string };
  submitter: LeadSubmitter;
  /**
   * Counts a new lead against the caller's and the business's allowances, inside the transaction
   * that records it (so a replay counts nothing, and a refusal, thrown, writes nothing).
   */
  countNewLead?: (tx: Db, business: { id: string; slug: string }) => Promise<void>;
}

/** Who submits: the caller's API key, else its address (null for in-process callers). */
export interface LeadSubmitter {
  apiKeyId: string | null;
  clientIp: string | null;
}

/** The agent or client that attested the consent. */
function attesterOf(submitter: LeadSubmitter): string {
  return submitter.apiKeyId ? `api-key:${submitter.apiKeyId}` : "anonymous-agent";
}

/** Whose idempotency keys these are ("key:<id>", "ip:<bucket>"): one caller's key never finds another's lead. */
function idempotencyScopeOf(submitter: LeadSubmitter): string {
  if (submitter.apiKeyId) return `key:${submitter.apiKeyId}`;
  return `ip:${submitter.clientIp === null ? "in-process" : clientBucketOf(submitter.clientIp)}`;
}

export interface TransitionLeadParams {
  /** The business whose key asks; only its own leads move. */
  businessId: string;
  leadId: string;
  status: LeadStatus;
}

/** The only view of a lead outside its business: no personal data. */
function leadView(lead: { id: string; status: LeadStatus; createdAt: Date; updatedAt: Date }) {
  return { leadId: lead.id, status: lead.status, createdAt: lead.createdAt.toISOString(), updatedAt: lead.updatedAt.toISOString() };
}

/** A retry must carry the same lead; the same key with another lead is a client bug, not a retry. */
function fingerprint(params: SubmitLeadParams): string {
  return createHash("sha256")
    .update(JSON.stringify([params.contactName, params.contactEmail ?? null, params.contactPhone ?? null, params.message]))
    .digest("hex");
}

/** A phone as E.164, read in the business's country when it has no international prefix. */
function toE164(phone: string, country: string): string {
  const parsed = parsePhoneNumberFromString(phone, country.toUpperCase() as CountryCode);
  if (!parsed?.isValid()) {
    throw new DomainError(
      "INVALID_INPUT",
      `Invalid parameter contactPhone: "${phone}" is not a valid phone number; give it in international form, e.g. +44 20 7946 0958`,
    );
  }
  return parsed.number;
}

/**
 * Stores a lead, its immutable consent record and a lead.created event in one transaction, with its
 * count against the allowances. The same caller's same idempotency key returns the first lead
 * instead of creating a second, and counts nothing.
 */
export async function submitLead(db: Db, submitted: SubmitLeadParams) {
  if (!submitted.contactEmail && !submitted.contactPhone) {
    throw new DomainError("INVALID_INPUT", "Invalid parameter contact: give contactEmail or contactPhone so the business can reply");
  }
  const business = await requireServableBySlug(db, submitted.slug);
  const params = { ...submitted, contactPhone: submitted.contactPhone === undefined ? undefined : toE164(submitted.contactPhone, business.country) };
  const key = `${params.idempotencyKey}:${fingerprint(params)}`;
  const idempotencyScope = idempotencyScopeOf(params.submitter);
  const existing = await findByKey(db, business.id, idempotencyScope, params.idempotencyKey);
  if (existing) return replay(existing, key, business.slug);
  const now = new Date();
  const id = randomUUID();
  try {
    await db.transaction(async (tx) => {
      await params.countNewLead?.(tx, business);
      await tx.insert(leads).values({
        id,
        businessId: business.id,
        contactName: params.contactName,
        contactEmail: params.contactEmail ?? null,
        contactPhone: params.contactPhone ?? null,
        message: params.message,
        idempotencyKey: params.idempotencyKey,
        idempotencyScope,
        requestFingerprint: key,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(leadConsents).values({
        leadId: id,
        statement: params.consent.statementShownToUser,
        attestedBy: attesterOf(params.submitter),
        consentedAt: params.consent.consentedAt ? new Date(params.consent.consentedAt) : now,
      });
      await tx.insert(outboxEvents).values({
        eventType: "lead.created",
        businessId: business.id,
        payload: { event: "lead.created", leadId: id, businessId: business.id, occurredAt: now.toISOString() },
        createdAt: now,
      });
    });
  } catch (error) {
    // A concurrent retry with the same key won the race: answer with its lead.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findByKey(db, business.id, idempotencyScope, params.idempotencyKey);
    if (!winner) throw error;
    return replay(winner, key, business.slug);
  }
  return { ...leadView({ id, status: "new", createdAt: now, updatedAt: now }), businessSlug: business.slug };
}

async function findByKey(db: Db, businessId: string, idempotencyScope: string, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.businessId, businessId), eq(leads.idempotencyScope, idempotencyScope), eq(leads.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

/** A retry answers as the first submission did: the lead is found under the business the slug names. */
function replay(lead: typeof leads.$inferSelect & { requestFingerprint: string }, key: string, businessSlug: string) {
  if (lead.requestFingerprint !== key) {
    throw new DomainError("CONFLICT", "This idempotencyKey was already used for a different lead; use a new key for a new lead");
  }
  return { ...leadView(lead), businessSlug };
}

async function requireLead(db: Db, leadId: string) {
  const [lead] = isUuid(leadId) ? await db.select().from(leads).where(eq(leads.id, leadId.toLowerCase())) : [];
  if (!lead) throw new DomainError("NOT_FOUND", `No lead with id "${leadId}"`);
  return lead;
}

/** The lead's status, naming the business it went to (current slug and name; no personal data). One round trip. */
export async function getLeadStatus(db: Db, leadId: string) {
  const [row] = isUuid(leadId)
    ? await db
        .select({ lead: leads, business: { slug: businesses.slug, name: businesses.name } })
        .from(leads)
        .innerJoin(businesses, eq(businesses.id, leads.businessId))
        .where(eq(leads.id, leadId.toLowerCase()))
    : [];
  if (!row) throw new DomainError("NOT_FOUND", `No lead with id "${leadId}"`);
  return { ...leadView(row.lead), business: row.business };
}

/** Moves a lead on; only the owning business (its business key) may, and only forward. */
export async function transitionLead(db: Db, params: TransitionLeadParams) {
  const { businessId, leadId, status } = params;
  const lead = await requireLead(db, leadId);
  // Another business's lead is indistinguishable from a missing one: ids are not confirmed to strangers.
  if (lead.businessId !== businessId) throw new DomainError("NOT_FOUND", `No lead with id "${leadId}"`);
  if (!NEXT_STATUSES[lead.status].includes(status)) {
    throw new DomainError("CONFLICT", `A ${lead.status} lead cannot become ${status}; allowed: ${NEXT_STATUSES[lead.status].join(", ") || "none (final)"}`);
  }
  const [updated] = await db
    .update(leads)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(leads.id, lead.id), eq(leads.status, lead.status)))
    .returning();
  if (!updated) throw new DomainError("CONFLICT", "The lead changed while you were updating it; read its status and retry");
  return leadView(updated);
}
