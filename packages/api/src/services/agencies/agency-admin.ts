import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { accountPlans, agencies, agencyBusinessAccess, agencyMembers, type Db } from "@directory/db";
import type { AdminAccountPlan } from "../accounts/account-admin";
import type { PlanStatus } from "../accounts/plans";

/** An operator lists at most this many agencies at once, newest first. */
export const AGENCIES_LISTED_MAX = 500;

/** An agency as an operator sees it in a list. */
export interface AdminAgencySummary {
  slug: string;
  name: string;
  createdAt: string;
  /** Members now (removed ones are not counted). */
  members: number;
  /** Listings it may manage now (withdrawn access is not counted). */
  businesses: number;
  /** The stored plan of the agency's own account, whether or not it still counts. */
  plan: AdminAccountPlan | null;
}

/** Per agency, how many rows of a table count now; one grouped query for the agencies given. */
async function countsByAgency(db: Db, agencyIds: string[], what: "members" | "businesses"): Promise<Map<string, number>> {
  if (agencyIds.length === 0) return new Map();
  const rows =
    what === "members"
      ? await db
          .select({ agencyId: agencyMembers.agencyId, n: count() })
          .from(agencyMembers)
          .where(and(inArray(agencyMembers.agencyId, agencyIds), isNull(agencyMembers.removedAt)))
          .groupBy(agencyMembers.agencyId)
      : await db
          .select({ agencyId: agencyBusinessAccess.agencyId, n: count() })
          .from(agencyBusinessAccess)
          .where(and(inArray(agencyBusinessAccess.agencyId, agencyIds), isNull(agencyBusinessAccess.withdrawnAt)))
          .groupBy(agencyBusinessAccess.agencyId);
  return new Map(rows.map((row) => [row.agencyId, Number(row.n)]));
}

/** Agencies newest first, each with its members, its businesses and its plan. */
export async function listAgenciesForOperators(db: Db, params: { limit: number }): Promise<AdminAgencySummary[]> {
  const rows = await db
    .select({
      id: agencies.id,
      slug: agencies.slug,
      name: agencies.name,
      createdAt: agencies.createdAt,
      planName: accountPlans.name,
      planStatus: accountPlans.status,
      planActiveUntil: accountPlans.activeUntil,
      planSource: accountPlans.source,
    })
    .from(agencies)
    .leftJoin(accountPlans, eq(accountPlans.accountId, agencies.accountId))
    .orderBy(desc(agencies.createdAt), desc(agencies.slug))
    .limit(Math.min(params.limit, AGENCIES_LISTED_MAX));
  const ids = rows.map((row) => row.id);
  const [members, businesses] = [await countsByAgency(db, ids, "members"), await countsByAgency(db, ids, "businesses")];
  return rows.map((row) => ({
    slug: row.slug,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    members: members.get(row.id) ?? 0,
    businesses: businesses.get(row.id) ?? 0,
    plan:
      row.planName !== null && row.planStatus !== null && row.planActiveUntil !== null && row.planSource !== null
        ? { name: row.planName, status: row.planStatus as PlanStatus, activeUntil: row.planActiveUntil.toISOString(), source: row.planSource }
        : null,
  }));
}
