import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { accounts, apiKeys, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { generateApiKey, hashApiKey, visiblePrefixOf } from "../access/api-key-format";
import { keyMonthlyPolicy, keyQuotaSubject, usedInWindow, type RateLimitSettings } from "../access/rate-limits";
import { currentPlanOf } from "./plans";

/** Active keys an account may hold at once: enough for every environment, bounded like every list. */
export const ACCOUNT_KEYS_MAX = 20;

/** A developer's key as its account sees it: never the key or its hash. */
export interface AccountKey {
  id: string;
  label: string;
  visiblePrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  usedThisMonth: number;
  monthlyLimit: number;
}

/** The account's active keys, oldest first, each with its use this month against its limit. */
export async function listAccountKeys(db: Db, accountId: string, limits: RateLimitSettings, now = new Date()): Promise<AccountKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.kind, "developer"), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
    .limit(ACCOUNT_KEYS_MAX);
  const policy = keyMonthlyPolicy(limits, (await currentPlanOf(db, accountId, now)) === null);
  const used = await usedInWindow(
    db,
    policy,
    rows.map((row) => keyQuotaSubject(row.id)),
    now,
  );
  return rows.map((row) => ({
    id: row.id,
    label: row.label ?? "",
    visiblePrefix: row.visiblePrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    usedThisMonth: used.get(keyQuotaSubject(row.id)) ?? 0,
    monthlyLimit: policy.limit,
  }));
}

/** Makes a developer key for the account and returns its plaintext: the only time anybody sees it. */
export async function createAccountKey(db: Db, accountId: string, label: string): Promise<{ id: string; key: string }> {
  return db.transaction(async (tx) => {
    // The account's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const [active] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.kind, "developer"), isNull(apiKeys.revokedAt)));
    if ((active?.n ?? 0) >= ACCOUNT_KEYS_MAX) {
      throw new DomainError("CONFLICT", `An account holds at most ${ACCOUNT_KEYS_MAX} active keys: revoke one first`);
    }
    const key = generateApiKey("developer");
    const [row] = await tx
      .insert(apiKeys)
      .values({ kind: "developer", accountId, label, keyHash: hashApiKey(key), visiblePrefix: visiblePrefixOf(key) })
      .returning({ id: apiKeys.id });
    if (!row) throw new Error("insert into api_keys returned no row");
    return { id: row.id, key };
  });
}

/** Revokes one of the account's developer keys at once (business keys are the listing's: owner/business-keys.ts); another account's key id is "not found", never touched. */
export async function revokeAccountKey(db: Db, accountId: string, keyId: string): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), eq(apiKeys.kind, "developer")))
    .returning({ id: apiKeys.id });
  if (!row) throw new DomainError("NOT_FOUND", `No key ${keyId} of yours`);
}
