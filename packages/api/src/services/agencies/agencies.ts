import { randomUUID } from "node:crypto";
import { and, asc, count, eq, isNull, like, or } from "drizzle-orm";
import { accounts, agencies, agencyMembers, type AgencyRole, type Db } from "@directory/db";
import { kebab } from "@directory/db/seed";
import { DomainError } from "../../errors";
import type { Mailer } from "../mail/mailer.types";
import { normalizeEmail } from "../accounts/email-address";
import { ensureAccount } from "../accounts/plans";

/** Bounds: agencies a person may create, members an agency holds, agencies listed for a person. */
export const AGENCIES_CREATED_MAX = 10;
export const AGENCY_MEMBERS_MAX = 100;

export interface AgencyMembership {
  id: string;
  slug: string;
  name: string;
  /** The account that holds the agency's plan and developer keys. */
  accountId: string;
  role: AgencyRole;
}

/** The agency of this slug as one of its members sees it; 404 for anyone else, so a stranger learns nothing. */
export async function membershipOf(db: Db, agencySlug: string, accountId: string): Promise<AgencyMembership> {
  const [row] = await db
    .select({ id: agencies.id, slug: agencies.slug, name: agencies.name, accountId: agencies.accountId, role: agencyMembers.role })
    .from(agencies)
    .innerJoin(agencyMembers, and(eq(agencyMembers.agencyId, agencies.id), eq(agencyMembers.accountId, accountId), isNull(agencyMembers.removedAt)))
    .where(eq(agencies.slug, agencySlug));
  if (!row) throw new DomainError("NOT_FOUND", `No agency "${agencySlug}" of yours`);
  return { ...row, role: row.role as AgencyRole };
}

/** The agencies a person belongs to, by name. */
export async function listAccountAgencies(db: Db, accountId: string): Promise<AgencyMembership[]> {
  const rows = await db
    .select({ id: agencies.id, slug: agencies.slug, name: agencies.name, accountId: agencies.accountId, role: agencyMembers.role })
    .from(agencyMembers)
    .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
    .where(and(eq(agencyMembers.accountId, accountId), isNull(agencyMembers.removedAt)))
    .orderBy(asc(agencies.name), asc(agencies.slug))
    .limit(AGENCY_MEMBERS_MAX);
  return rows.map((row) => ({ ...row, role: row.role as AgencyRole }));
}

/** A free slug from the agency's name: the name's kebab form, with -2, -3... when taken. */
async function freeSlug(tx: Db, name: string): Promise<string> {
  const base = kebab(name).slice(0, 60) || "agency";
  const taken = new Set(
    (
      await tx
        .select({ slug: agencies.slug })
        .from(agencies)
        .where(or(eq(agencies.slug, base), like(agencies.slug, `${base}-%`)))
    ).map((row) => row.slug),
  );
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(slug)) return slug;
  }
}

/** Creates an agency with the person as its owner, and the account that holds its plan and keys. */
export async function createAgency(db: Db, params: { accountId: string; name: string }): Promise<AgencyMembership> {
  return db.transaction(async (tx) => {
    // The creator's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, params.accountId)).for("update");
    const [created] = await tx.select({ n: count() }).from(agencies).where(eq(agencies.createdBy, params.accountId));
    if ((created?.n ?? 0) >= AGENCIES_CREATED_MAX) throw new DomainError("CONFLICT", `A person creates at most ${AGENCIES_CREATED_MAX} agencies`);
    const slug = await freeSlug(tx, params.name);
    // The holder account's address is under .invalid: no mail reaches it and nobody can sign in as it.
    const [holder] = await tx
      .insert(accounts)
      .values({ email: `agency-${randomUUID()}@agencies.invalid`, name: params.name })
      .returning({ id: accounts.id });
    if (!holder) throw new Error("insert into accounts returned no row");
    const [agency] = await tx
      .insert(agencies)
      .values({ slug, name: params.name, accountId: holder.id, createdBy: params.accountId })
      .returning({ id: agencies.id });
    if (!agency) throw new Error("insert into agencies returned no row");
    await tx.insert(agencyMembers).values({ agencyId: agency.id, accountId: params.accountId, role: "owner", addedBy: params.accountId });
    return { id: agency.id, slug, name: params.name, accountId: holder.id, role: "owner" };
  });
}

export interface AgencyMemberView {
  email: string;
  role: AgencyRole;
  addedAt: string;
}

export async function listAgencyMembers(db: Db, agencyId: string): Promise<AgencyMemberView[]> {
  const rows = await db
    .select({ email: accounts.email, role: agencyMembers.role, addedAt: agencyMembers.addedAt })
    .from(agencyMembers)
    .innerJoin(accounts, eq(accounts.id, agencyMembers.accountId))
    .where(and(eq(agencyMembers.agencyId, agencyId), isNull(agencyMembers.removedAt)))
    .orderBy(asc(agencyMembers.addedAt), asc(accounts.email))
    .limit(AGENCY_MEMBERS_MAX);
  return rows.map((row) => ({ email: row.email, role: row.role as AgencyRole, addedAt: row.addedAt.toISOString() }));
}

/**
 * Adds a person (by address; their account is made if they have none) to the agency, or changes
 * their role, and mails them. The mail goes last inside the transaction: if it cannot be sent,
 * nothing is added.
 */
export async function inviteAgencyMember(
  db: Db,
  params: { agency: AgencyMembership; email: string; role: AgencyRole; invitedBy: string; mailer: Mailer; publicBaseUrl: string },
): Promise<AgencyMemberView> {
  return db.transaction(async (tx) => {
    await tx.select({ id: agencies.id }).from(agencies).where(eq(agencies.id, params.agency.id)).for("update");
    const [members] = await tx
      .select({ n: count() })
      .from(agencyMembers)
      .where(and(eq(agencyMembers.agencyId, params.agency.id), isNull(agencyMembers.removedAt)));
    if ((members?.n ?? 0) >= AGENCY_MEMBERS_MAX) throw new DomainError("CONFLICT", `An agency has at most ${AGENCY_MEMBERS_MAX} members`);
    const person = await ensureAccount(tx, params.email);
    // Inviting the only owner again as a member would leave the agency with no owner, as removing them would.
    if (params.role !== "owner") {
      const owners = await tx
        .select({ accountId: agencyMembers.accountId })
        .from(agencyMembers)
        .where(and(eq(agencyMembers.agencyId, params.agency.id), eq(agencyMembers.role, "owner"), isNull(agencyMembers.removedAt)));
      if (owners.length === 1 && owners[0]!.accountId === person.id) {
        throw new DomainError("CONFLICT", "An agency keeps at least one owner: make another member an owner first");
      }
    }
    const at = new Date();
    await tx
      .insert(agencyMembers)
      .values({ agencyId: params.agency.id, accountId: person.id, role: params.role, addedBy: params.invitedBy, addedAt: at })
      .onConflictDoUpdate({ target: [agencyMembers.agencyId, agencyMembers.accountId], set: { role: params.role, removedAt: null } });
    await params.mailer.send({
      to: person.email,
      subject: `You are now a${params.role === "owner" ? "n owner" : " member"} of ${params.agency.name}`,
      text:
        `You were added to the agency ${params.agency.name} on the business directory.\n\n` +
        `Sign in with this address to open its dashboard: ${params.publicBaseUrl}/dashboard/agency/${params.agency.slug}\n`,
    });
    return { email: person.email, role: params.role, addedAt: at.toISOString() };
  });
}

/** Removes a member; the agency always keeps at least one owner. */
export async function removeAgencyMember(db: Db, params: { agencyId: string; email: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: agencies.id }).from(agencies).where(eq(agencies.id, params.agencyId)).for("update");
    const members = await tx
      .select({ accountId: agencyMembers.accountId, role: agencyMembers.role, email: accounts.email })
      .from(agencyMembers)
      .innerJoin(accounts, eq(accounts.id, agencyMembers.accountId))
      .where(and(eq(agencyMembers.agencyId, params.agencyId), isNull(agencyMembers.removedAt)));
    const leaving = members.find((member) => member.email === normalizeEmail(params.email));
    if (!leaving) throw new DomainError("NOT_FOUND", `${params.email} is not a member of this agency`);
    if (leaving.role === "owner" && members.filter((member) => member.role === "owner").length === 1) {
      throw new DomainError("CONFLICT", "An agency keeps at least one owner: make another member an owner first");
    }
    await tx
      .update(agencyMembers)
      .set({ removedAt: new Date() })
      .where(and(eq(agencyMembers.agencyId, params.agencyId), eq(agencyMembers.accountId, leaving.accountId)));
  });
}
