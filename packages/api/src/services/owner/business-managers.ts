import { and, eq, isNull } from "drizzle-orm";
import { agencies, agencyBusinessAccess, agencyMembers, type Db } from "@directory/db";
import { isOwner } from "../claims/ownership";

/**
 * Who may manage a listing from a dashboard: its owners (and co-owners), and the members of an
 * agency an owner granted access. The one answer every owner procedure and page asks.
 */
export type BusinessManager =
  | { role: "owner"; accountId: string }
  /** Keys an agency member takes for the listing are held by the agency's account, so withdrawing the agency's access revokes them. */
  | { role: "agency"; accountId: string; agencyId: string; agencyAccountId: string };

/** Who acts on a managed business: its business key, or a signed-in manager. */
export type BusinessActor = { kind: "key"; keyId: string } | { kind: "session"; manager: BusinessManager };

export async function managerOf(db: Db, accountId: string, businessId: string): Promise<BusinessManager | null> {
  if (await isOwner(db, businessId, accountId)) return { role: "owner", accountId };
  const [viaAgency] = await db
    .select({ agencyId: agencies.id, agencyAccountId: agencies.accountId })
    .from(agencyBusinessAccess)
    .innerJoin(agencies, eq(agencies.id, agencyBusinessAccess.agencyId))
    .innerJoin(agencyMembers, and(eq(agencyMembers.agencyId, agencies.id), eq(agencyMembers.accountId, accountId), isNull(agencyMembers.removedAt)))
    .where(and(eq(agencyBusinessAccess.businessId, businessId), isNull(agencyBusinessAccess.withdrawnAt)))
    .orderBy(agencies.slug)
    .limit(1);
  return viaAgency ? { role: "agency", accountId, ...viaAgency } : null;
}

/** The account that holds the keys a manager takes for the listing: the person's, or their agency's. */
export function keyHolderOf(manager: BusinessManager): string {
  return manager.role === "agency" ? manager.agencyAccountId : manager.accountId;
}
