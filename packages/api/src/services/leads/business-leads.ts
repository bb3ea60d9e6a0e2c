import { desc, eq } from "drizzle-orm";
import { leads, type Db, type LeadStatus } from "@directory/db";
import { NEXT_STATUSES } from "./leads";

/** Leads one dashboard page lists: the newest; older ones stay in the database. */
export const BUSINESS_LEADS_LISTED_MAX = 100;

/** A lead as its own business sees it: the contact details are for the business alone. */
export interface BusinessLeadView {
  leadId: string;
  status: LeadStatus;
  /** The statuses it may move to next (empty once final). */
  next: LeadStatus[];
  contactName: string;
  contactEmail: string | null;
  contactPhone: string | null;
  message: string;
  createdAt: string;
  updatedAt: string;
}

/** The leads sent to the business, newest first. */
export async function listBusinessLeads(db: Db, params: { businessId: string; limit?: number }): Promise<BusinessLeadView[]> {
  const rows = await db
    .select()
    .from(leads)
    .where(eq(leads.businessId, params.businessId))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(Math.min(params.limit ?? BUSINESS_LEADS_LISTED_MAX, BUSINESS_LEADS_LISTED_MAX));
  return rows.map((row) => ({
    leadId: row.id,
    status: row.status,
    next: [...NEXT_STATUSES[row.status]],
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}
