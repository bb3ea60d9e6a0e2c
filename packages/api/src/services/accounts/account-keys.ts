import { and, eq } from "drizzle-orm";
import { accounts, apiKeys, type Db } from "@directory/db";
import { activeHeldKeys, createHeldKey, heldKeyView, revokeHeldKey, type HeldKeyView } from "../access/held-keys";
import { keyMonthlyPolicy, keyQuotaSubject, usedInWindow, type RateLimitSettings } from "../access/rate-limits";
import { currentPlanOf } from "./plans";

/** Active keys an account may hold at once: enough for every environment, bounded like every list. */
export const ACCOUNT_KEYS_MAX = 20;

/** A developer's key as its account sees it: never the key or its hash. */
export interface AccountKey extends HeldKeyView {
  usedThisMonth: number;
  monthlyLimit: number;
}

const developerKeysOf = (accountId: string) => and(eq(apiKeys.accountId, accountId), eq(apiKeys.kind, "developer"));

/** The account's active keys, oldest first, each with its use this month against its limit. */
export async function listAccountKeys(db: Db, accountId: string, limits: RateLimitSettings, now = new Date()): Promise<AccountKey[]> {
  const rows = await activeHeldKeys(db, developerKeysOf(accountId), ACCOUNT_KEYS_MAX);
  const policy = keyMonthlyPolicy(limits, (await currentPlanOf(db, accountId, now)) === null);
  const used = await usedInWindow(
    db,
    policy,
    rows.map((row) => keyQuotaSubject(row.id)),
    now,
  );
  return rows.map((row) => ({ ...heldKeyView(row), usedThisMonth: used.get(keyQuotaSubject(row.id)) ?? 0, monthlyLimit: policy.limit }));
}

/** Makes a developer key for the account and returns its plaintext: the only time anybody sees it. */
export async function createAccountKey(db: Db, accountId: string, label: string): Promise<{ id: string; key: string }> {
  return db.transaction(async (tx) => {
    // The account's row is the lock: two creations at once cannot both pass the cap.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    return createHeldKey(tx, {
      kind: "developer",
      accountId,
      label,
      held: developerKeysOf(accountId),
      max: ACCOUNT_KEYS_MAX,
      capReached: `An account holds at most ${ACCOUNT_KEYS_MAX} active keys`,
    });
  });
}

/** Revokes one of the account's developer keys at once (business keys are the listing's: owner/business-keys.ts); another account's key id is "not found", never touched. */
export async function revokeAccountKey(db: Db, accountId: string, keyId: string): Promise<void> {
  await revokeHeldKey(db, and(eq(apiKeys.id, keyId), developerKeysOf(accountId)), `No key ${keyId} of yours`);
}
