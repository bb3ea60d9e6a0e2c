import { and, count, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { accountPlans, accounts, accountSessions, apiKeys, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { PlanStatus } from "./plans";
import { normalizeEmail } from "./email-address";

/** An operator lists at most this many accounts at once, newest first. */
export const ACCOUNTS_LISTED_MAX = 500;
/** An account's keys shown to an operator, newest first: its active ones (at most ACCOUNT_KEYS_MAX) and recent revoked ones. */
export const ACCOUNT_KEYS_SHOWN_MAX = 100;

/** The account's stored plan, whether or not it still counts: an operator sees an expired or canceled one too. */
export interface AdminAccountPlan {
  name: string;
  status: PlanStatus;
  activeUntil: string;
  /** "operator" or the payment provider's name. */
  source: string;
}

/** An account as an operator sees it in a list. */
export interface AdminAccountSummary {
  email: string;
  createdAt: string;
  disabledAt: string | null;
  plan: AdminAccountPlan | null;
  /** Unrevoked keys the account made. */
  activeKeys: number;
}

/** One of the account's keys: never the key or its hash. */
export interface AdminAccountKey {
  id: string;
  label: string | null;
  visiblePrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface AdminAccountDetails extends AdminAccountSummary {
  keys: AdminAccountKey[];
  /** Signed-in browsers whose session has not expired. */
  openSessions: number;
}

const accountColumns = {
  id: accounts.id,
  email: accounts.email,
  createdAt: accounts.createdAt,
  disabledAt: accounts.disabledAt,
  planName: accountPlans.name,
  planStatus: accountPlans.status,
  planActiveUntil: accountPlans.activeUntil,
  planSource: accountPlans.source,
};

function summarise(row: AccountRow, activeKeys: number): AdminAccountSummary {
  const plan =
    row.planName !== null && row.planStatus !== null && row.planActiveUntil !== null && row.planSource !== null
      ? { name: row.planName, status: row.planStatus as PlanStatus, activeUntil: row.planActiveUntil.toISOString(), source: row.planSource }
      : null;
  return { email: row.email, createdAt: row.createdAt.toISOString(), disabledAt: row.disabledAt?.toISOString() ?? null, plan, activeKeys };
}

function selectAccounts(db: Db) {
  return db.select(accountColumns).from(accounts).leftJoin(accountPlans, eq(accountPlans.accountId, accounts.id));
}

type AccountRow = Awaited<ReturnType<typeof selectAccounts>>[number];

/** Unrevoked keys per account, for the accounts given. */
async function activeKeyCounts(db: Db, accountIds: string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ accountId: apiKeys.accountId, n: count() })
    .from(apiKeys)
    .where(and(inArray(apiKeys.accountId, accountIds), isNull(apiKeys.revokedAt)))
    .groupBy(apiKeys.accountId);
  return new Map(rows.map((row) => [row.accountId!, Number(row.n)]));
}

/** Accounts newest first, each with its stored plan and its count of active keys; bounded like every list. */
export async function listAccounts(db: Db, params: { limit: number }): Promise<AdminAccountSummary[]> {
  const rows = await selectAccounts(db).orderBy(desc(accounts.createdAt), desc(accounts.id)).limit(Math.min(params.limit, ACCOUNTS_LISTED_MAX));
  const keys = await activeKeyCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => summarise(row, keys.get(row.id) ?? 0));
}

async function requireAccount(db: Db, email: string): Promise<AccountRow> {
  const normalized = normalizeEmail(email);
  const [row] = await selectAccounts(db).where(eq(accounts.email, normalized));
  if (!row) throw new DomainError("NOT_FOUND", `No account for ${normalized}`);
  return row;
}

/** The list's line for one account (after a grant or a disable). */
export async function accountSummaryOf(db: Db, email: string): Promise<AdminAccountSummary> {
  const row = await requireAccount(db, email);
  return summarise(row, (await activeKeyCounts(db, [row.id])).get(row.id) ?? 0);
}

/** One account in full: its summary, its keys (revoked ones too) and how many browsers are signed in. */
export async function showAccount(db: Db, email: string, now = new Date()): Promise<AdminAccountDetails> {
  const row = await requireAccount(db, email);
  const keys = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, row.id))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(ACCOUNT_KEYS_SHOWN_MAX);
  const [sessions] = await db
    .select({ n: count() })
    .from(accountSessions)
    .where(and(eq(accountSessions.userId, row.id), gt(accountSessions.expiresAt, now)));
  return {
    ...summarise(row, (await activeKeyCounts(db, [row.id])).get(row.id) ?? 0),
    keys: keys.map((key) => ({
      id: key.id,
      label: key.label,
      visiblePrefix: key.visiblePrefix,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
    openSessions: Number(sessions?.n ?? 0),
  };
}

/**
 * Disables an account: its sessions are deleted (every browser is signed out) and, because the key
 * check reads disabledAt on every request, its keys are refused from the next request on. The keys
 * stay unrevoked so the account's history is kept. Disabling twice keeps the first time.
 */
export async function disableAccount(db: Db, email: string): Promise<AdminAccountSummary> {
  const normalized = normalizeEmail(email);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ disabledAt: sql`coalesce(${accounts.disabledAt}, now())`, updatedAt: sql`now()` })
      .where(eq(accounts.email, normalized))
      .returning({ id: accounts.id });
    if (!row) throw new DomainError("NOT_FOUND", `No account for ${normalized}`);
    await tx.delete(accountSessions).where(eq(accountSessions.userId, row.id));
    return accountSummaryOf(tx, normalized);
  });
}

/** A `YYYY-MM-DD` day that exists on the calendar (no 2027-02-30). */
export function isCalendarDay(day: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return false;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(year, month - 1, date));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date;
}

/** The last millisecond of a day in UTC: a plan granted "until 2027-01-31" counts through that whole day. */
export function endOfDayUtc(day: string): Date {
  if (!isCalendarDay(day)) throw new DomainError("INVALID_INPUT", `Not a calendar day (YYYY-MM-DD): ${day}`);
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date, 23, 59, 59, 999));
}
