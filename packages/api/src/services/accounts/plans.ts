import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { accountPlans, accounts, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { normalizeEmail } from "./email-address";

/** The one plan on sale: the spec's developer plan (flat monthly price, KEY_MONTHLY_LIMIT requests a month per key). */
export const DEVELOPER_PLAN = "developer";

export type PlanStatus = "active" | "past_due" | "canceled";

/** The plan as its account sees it; null when the account has none that counts now. */
export interface CurrentPlan {
  name: string;
  /** ISO time until which the plan counts. */
  activeUntil: string;
  status: PlanStatus;
  source: string;
}

/** A plan counts while it is active or past due (the provider still retrying) and its time has not run out. */
export function planCountsSql(now: Date) {
  return and(inArray(accountPlans.status, ["active", "past_due"]), gt(accountPlans.activeUntil, now));
}

export async function currentPlanOf(db: Db, accountId: string, now = new Date()): Promise<CurrentPlan | null> {
  const [row] = await db
    .select()
    .from(accountPlans)
    .where(and(eq(accountPlans.accountId, accountId), planCountsSql(now)));
  if (!row) return null;
  return { name: row.name, activeUntil: row.activeUntil.toISOString(), status: row.status as PlanStatus, source: row.source };
}

export interface PlanChange {
  status: PlanStatus;
  activeUntil: Date;
  /** "operator" or the payment provider's name. */
  source: string;
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
}

/** Sets an account's developer plan, whoever decides it (an operator, or a provider's event). */
export async function setPlan(db: Db, accountId: string, change: PlanChange): Promise<void> {
  const values = {
    name: DEVELOPER_PLAN,
    status: change.status,
    activeUntil: change.activeUntil,
    source: change.source,
    providerCustomerId: change.providerCustomerId ?? null,
    providerSubscriptionId: change.providerSubscriptionId ?? null,
    updatedAt: sql`now()`,
  };
  await db
    .insert(accountPlans)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: accountPlans.accountId, set: values });
}

/** Finds the account of an address, making it when there is none (an operator may grant a plan before the first sign-in). */
export async function ensureAccount(db: Db, email: string): Promise<{ id: string; email: string }> {
  const normalized = normalizeEmail(email);
  await db.insert(accounts).values({ email: normalized }).onConflictDoNothing({ target: accounts.email });
  const [row] = await db.select({ id: accounts.id, email: accounts.email }).from(accounts).where(eq(accounts.email, normalized));
  if (!row) throw new DomainError("NOT_FOUND", `No account for ${normalized}`);
  return row;
}

export interface GrantPlanParams {
  email: string;
  /** The plan counts until the end of this day (UTC). */
  until: Date;
}

/** An operator's grant: the developer plan, active until the given day, for the account of this address. */
export async function grantPlan(db: Db, params: GrantPlanParams, now = new Date()): Promise<CurrentPlan> {
  if (params.until.getTime() <= now.getTime()) throw new DomainError("INVALID_INPUT", "The plan's end date must be in the future");
  const account = await ensureAccount(db, params.email);
  await setPlan(db, account.id, { status: "active", activeUntil: params.until, source: "operator" });
  const plan = await currentPlanOf(db, account.id, now);
  if (!plan) throw new Error("a granted plan does not count");
  return plan;
}
