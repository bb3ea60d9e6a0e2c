import { and, asc, eq } from "drizzle-orm";
import { agencies, agencyBusinessAccess, agencyMembers, apiKeys, businessOwners, claims, leads, type Db } from "@directory/db";
import { createAccountKey } from "../../services/accounts/account-keys";
import { ensureAccount } from "../../services/accounts/plans";
import { createAgency } from "../../services/agencies/agencies";
import { grantAgencyAccess } from "../../services/agencies/agency-access";
import { addOwner } from "../../services/claims/ownership";
import { submitLead } from "../../services/leads/leads";
import type { TestSmtpServer } from "../../services/mail/test-smtp-server";
import { createBusinessKey } from "../../services/owner/business-keys";
import type { TestDatabase } from "../../testing";
import { claimCaller, createListing, signInPerson, type Person } from "../ownership/ownership-fixtures";

/**
 * The people and actions of the dashboards' access matrix (dashboard-access.test.ts): every owner.*
 * and agency.* procedure, who may call it, and the state each needs made before it is called.
 */

export const PEOPLE = ["owner", "coOwner", "agencyOwner", "agencyMember", "otherAgency", "stranger", "signedOut"] as const;
export type PersonName = (typeof PEOPLE)[number];

export type Api = ReturnType<typeof claimCaller>;

export interface World {
  database: TestDatabase;
  smtp: TestSmtpServer;
  /** The listing the matrix acts on, its owner's, and one nobody in the matrix manages. */
  listing: { id: string; slug: string };
  people: Record<Exclude<PersonName, "signedOut">, Person>;
  /** The agency granted access to the listing; another with no access; one only the grant/withdraw actions move. */
  agency: { slug: string; accountId: string };
  otherAgencySlug: string;
  spareAgency: { id: string; slug: string };
}

export function callerOf(world: World, person: PersonName): Api {
  return claimCaller(world.database, world.smtp, person === "signedOut" ? null : world.people[person]);
}

let made = 0;
/** A fresh suffix for addresses, labels and values the actions write, so each call is a real change. */
export const fresh = () => `${Date.now().toString(36)}-${++made}`;

/**
 * The world, built through the procedures a person uses: the owner invites the co-owner, an agency is
 * created, its member invited and the agency granted access; a second agency is granted nothing.
 */
export async function buildWorld(database: TestDatabase, smtp: TestSmtpServer, tag: string): Promise<World> {
  const sign = (name: string) => signInPerson(database, smtp, `${name}@${tag}.test`);
  const listing = await createListing(database, { name: `${tag} Matrix Shop`, website: "https://matrix-shop.example/" });
  const owner = await sign("owner");
  await database.db.transaction((tx) => addOwner(tx, { businessId: listing.id, accountId: owner.accountId, method: "operator", decidedBy: "operator" }));
  const asOwner = claimCaller(database, smtp, owner);
  await asOwner.owner.coOwners.invite({ slug: listing.slug, email: `co-owner@${tag}.test` });
  await smtp.nextMail(`co-owner@${tag}.test`);
  const coOwner = await sign("co-owner");

  const agencyOwner = await sign("agency-owner");
  const created = await claimCaller(database, smtp, agencyOwner).agency.create({ name: `${tag} Access Agency` });
  await claimCaller(database, smtp, agencyOwner).agency.members.invite({ agencySlug: created.slug, email: `agency-member@${tag}.test`, role: "member" });
  await smtp.nextMail(`agency-member@${tag}.test`);
  const agencyMember = await sign("agency-member");
  await asOwner.owner.agencies.grant({ slug: listing.slug, agencySlug: created.slug });

  const otherAgency = await sign("other-agency");
  const other = await claimCaller(database, smtp, otherAgency).agency.create({ name: `${tag} Other Agency` });
  const stranger = await sign("stranger");
  // The spare agency's only member is nobody in the matrix, so granting it changes no one's access.
  const spareBoss = await ensureAccount(database.db, `spare-boss@${tag}.test`);
  const spare = await createAgency(database.db, { accountId: spareBoss.id, name: `${tag} Spare Agency` });
  const [agencyRow] = await database.db.select({ accountId: agencies.accountId }).from(agencies).where(eq(agencies.slug, created.slug));
  return {
    database,
    smtp,
    listing,
    people: { owner, coOwner, agencyOwner, agencyMember, otherAgency, stranger },
    agency: { slug: created.slug, accountId: agencyRow!.accountId },
    otherAgencySlug: other.slug,
    spareAgency: { id: spare.id, slug: spare.slug },
  };
}

/** Every row an owner.* or agency.* call may change; a refused call must leave all of them as they were. */
export async function snapshot(db: Db, businessId: string) {
  return {
    claims: await db.select({ id: claims.id, supersededAt: claims.supersededAt }).from(claims).where(eq(claims.businessId, businessId)).orderBy(asc(claims.id)),
    apiKeys: await db.select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt }).from(apiKeys).orderBy(asc(apiKeys.id)),
    owners: await db.select().from(businessOwners).orderBy(asc(businessOwners.businessId), asc(businessOwners.accountId)),
    members: await db.select().from(agencyMembers).orderBy(asc(agencyMembers.agencyId), asc(agencyMembers.accountId)),
    access: await db.select().from(agencyBusinessAccess).orderBy(asc(agencyBusinessAccess.agencyId), asc(agencyBusinessAccess.businessId)),
    leads: await db.select({ id: leads.id, status: leads.status }).from(leads).orderBy(asc(leads.id)),
  };
}

/** Who may call: a listing's manager (owners and agency members with access), its owners only, an agency's members, its owners only. */
export type Access = "manager" | "owners" | "agencyMember" | "agencyOwner";

const ALLOWED: Record<Access, readonly PersonName[]> = {
  manager: ["owner", "coOwner", "agencyOwner", "agencyMember"],
  owners: ["owner", "coOwner"],
  agencyMember: ["agencyOwner", "agencyMember"],
  agencyOwner: ["agencyOwner"],
};

/** "ok", or the tRPC code the person gets: 401 signed out; an agency is 404 to non-members; otherwise 403. */
export function expectedOutcome(person: PersonName, access: Access): "ok" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" {
  if (ALLOWED[access].includes(person)) return "ok";
  if (person === "signedOut") return "UNAUTHORIZED";
  if (access === "agencyOwner" && person === "agencyMember") return "FORBIDDEN";
  return access.startsWith("agency") ? "NOT_FOUND" : "FORBIDDEN";
}

export interface Action {
  name: string;
  access: Access;
  mutation: boolean;
  /** State the call acts on, made directly before it (a lead, a key, an owner to remove...); returns what the call names. */
  prepare?: (world: World) => Promise<string>;
  call: (api: Api, world: World, prepared: string) => Promise<unknown>;
}

const slugOf = (world: World) => ({ slug: world.listing.slug });
const agencyOf = (world: World) => ({ agencySlug: world.agency.slug });

/** A new lead to the listing, as an agent submits it. */
export async function leadTo(database: TestDatabase, slug: string): Promise<string> {
  const lead = await submitLead(database.db, {
    slug,
    contactName: "Matrix Lead",
    contactEmail: `lead-${fresh()}@example.org`,
    message: "Please call me back",
    idempotencyKey: `matrix-${fresh()}`,
    consent: { statementShownToUser: "I agree that this business may contact me." },
    submitter: { apiKeyId: null, clientIp: null },
  });
  return lead.leadId;
}

async function extraOwner(world: World): Promise<string> {
  const person = await ensureAccount(world.database.db, `extra-owner-${fresh()}@matrix.test`);
  await world.database.db.transaction((tx) => addOwner(tx, { businessId: world.listing.id, accountId: person.id, method: "operator", decidedBy: "operator" }));
  return person.email;
}

async function extraMember(world: World): Promise<string> {
  const person = await ensureAccount(world.database.db, `extra-member-${fresh()}@matrix.test`);
  const [agency] = await world.database.db.select({ id: agencies.id }).from(agencies).where(eq(agencies.slug, world.agency.slug));
  await world.database.db.insert(agencyMembers).values({ agencyId: agency!.id, accountId: person.id, role: "member" });
  return person.email;
}

export const ACTIONS: Action[] = [
  { name: "owner.overview", access: "manager", mutation: false, call: (api, w) => api.owner.overview(slugOf(w)) },
  { name: "owner.updateListing", access: "manager", mutation: true, call: (api, w) => api.owner.updateListing({ ...slugOf(w), tagline: `Fresh ${fresh()}` }) },
  { name: "owner.visibility", access: "manager", mutation: false, call: (api, w) => api.owner.visibility(slugOf(w)) },
  { name: "owner.citations", access: "manager", mutation: false, call: (api, w) => api.owner.citations({ ...slugOf(w), limit: 5 }) },
  { name: "owner.corrections", access: "manager", mutation: false, call: (api, w) => api.owner.corrections(slugOf(w)) },
  { name: "owner.leads.list", access: "manager", mutation: false, call: (api, w) => api.owner.leads.list(slugOf(w)) },
  {
    name: "leads.transition",
    access: "manager",
    mutation: true,
    prepare: (w) => leadTo(w.database, w.listing.slug),
    call: (api, w, leadId) => api.leads.transition({ ...slugOf(w), leadId, status: "contacted" }),
  },
  { name: "owner.keys.list", access: "manager", mutation: false, call: (api, w) => api.owner.keys.list(slugOf(w)) },
  { name: "owner.keys.create", access: "manager", mutation: true, call: (api, w) => api.owner.keys.create({ ...slugOf(w), label: `key ${fresh()}` }) },
  {
    name: "owner.keys.revoke",
    access: "manager",
    mutation: true,
    prepare: async (w) =>
      (await createBusinessKey(w.database.db, { businessId: w.listing.id, holderAccountId: w.people.owner.accountId, label: `to revoke ${fresh()}` })).id,
    call: (api, w, id) => api.owner.keys.revoke({ ...slugOf(w), id }),
  },
  { name: "owner.webhooks.list", access: "manager", mutation: false, call: (api, w) => api.owner.webhooks.list(slugOf(w)) },
  { name: "owner.coOwners.list", access: "manager", mutation: false, call: (api, w) => api.owner.coOwners.list(slugOf(w)) },
  {
    name: "owner.coOwners.invite",
    access: "owners",
    mutation: true,
    prepare: async () => `invited-${fresh()}@matrix.test`,
    call: async (api, w, email) => {
      await api.owner.coOwners.invite({ ...slugOf(w), email });
      await w.smtp.nextMail(email);
    },
  },
  {
    name: "owner.coOwners.remove",
    access: "owners",
    mutation: true,
    prepare: extraOwner,
    call: (api, w, email) => api.owner.coOwners.remove({ ...slugOf(w), email }),
  },
  { name: "owner.agencies.list", access: "manager", mutation: false, call: (api, w) => api.owner.agencies.list(slugOf(w)) },
  {
    name: "owner.agencies.grant",
    access: "owners",
    mutation: true,
    prepare: async (w) => {
      await w.database.db
        .update(agencyBusinessAccess)
        .set({ withdrawnAt: new Date() })
        .where(and(eq(agencyBusinessAccess.agencyId, w.spareAgency.id), eq(agencyBusinessAccess.businessId, w.listing.id)));
      return w.spareAgency.slug;
    },
    call: (api, w, agencySlug) => api.owner.agencies.grant({ ...slugOf(w), agencySlug }),
  },
  {
    name: "owner.agencies.withdraw",
    access: "owners",
    mutation: true,
    prepare: async (w) =>
      (await grantAgencyAccess(w.database.db, { businessId: w.listing.id, agencySlug: w.spareAgency.slug, grantedBy: w.people.owner.accountId })).slug,
    call: (api, w, agencySlug) => api.owner.agencies.withdraw({ ...slugOf(w), agencySlug }),
  },
  { name: "agency.overview", access: "agencyMember", mutation: false, call: (api, w) => api.agency.overview(agencyOf(w)) },
  {
    name: "agency.members.invite",
    access: "agencyOwner",
    mutation: true,
    prepare: async () => `member-${fresh()}@matrix.test`,
    call: async (api, w, email) => {
      await api.agency.members.invite({ ...agencyOf(w), email, role: "member" });
      await w.smtp.nextMail(email);
    },
  },
  {
    name: "agency.members.remove",
    access: "agencyOwner",
    mutation: true,
    prepare: extraMember,
    call: (api, w, email) => api.agency.members.remove({ ...agencyOf(w), email }),
  },
  { name: "agency.keys.list", access: "agencyOwner", mutation: false, call: (api, w) => api.agency.keys.list(agencyOf(w)) },
  {
    name: "agency.keys.create",
    access: "agencyOwner",
    mutation: true,
    call: (api, w) => api.agency.keys.create({ ...agencyOf(w), label: `agency key ${fresh()}` }),
  },
  {
    name: "agency.keys.revoke",
    access: "agencyOwner",
    mutation: true,
    prepare: async (w) => (await createAccountKey(w.database.db, w.agency.accountId, `to revoke ${fresh()}`)).id,
    call: (api, w, id) => api.agency.keys.revoke({ ...agencyOf(w), id }),
  },
];
