import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhooks } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { ensureAccount } from "../accounts/plans";
import { addOwner } from "../claims/ownership";
import { createListing } from "../../routers/ownership/ownership-fixtures";
import { listBusinessWebhooks } from "../webhooks/registry";
import { createBusinessKey, revokeBusinessKey } from "./business-keys";
import { LISTING_OWNERS_MAX, listCoOwners, removeCoOwner } from "./co-owners";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

describe("a listing's owners and webhooks as its dashboard sees them", () => {
  it("removes an owner beyond the listed ones (operators add owners past the invitation cap)", async () => {
    const shop = await createListing(database, { name: "Many Owners Shop" });
    const emails = Array.from({ length: LISTING_OWNERS_MAX + 1 }, (_, n) => `owner${n}@many-owners.test`);
    for (const email of emails) {
      const person = await ensureAccount(database.db, email);
      await database.db.transaction((tx) => addOwner(tx, { businessId: shop.id, accountId: person.id, method: "operator", decidedBy: "operator" }));
    }
    const listed = await listCoOwners(database.db, shop.id);
    expect(listed).toHaveLength(LISTING_OWNERS_MAX);
    const unlisted = emails.find((email) => !listed.some((owner) => owner.email === email))!;
    await expect(removeCoOwner(database.db, { businessId: shop.id, email: unlisted })).resolves.toEqual({ remainingOwners: LISTING_OWNERS_MAX });
    await expect(removeCoOwner(database.db, { businessId: shop.id, email: "nobody@many-owners.test" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lists the webhooks of the listing's active business keys only", async () => {
    const shop = await createListing(database, { name: "Webhook Keys Shop" });
    const holder = await ensureAccount(database.db, "holder@webhook-keys.test");
    const kept = await createBusinessKey(database.db, { businessId: shop.id, holderAccountId: holder.id, label: "kept" });
    const revoked = await createBusinessKey(database.db, { businessId: shop.id, holderAccountId: holder.id, label: "revoked" });
    for (const key of [kept, revoked]) {
      await database.db
        .insert(webhooks)
        .values({ id: randomUUID(), apiKeyId: key.id, url: `https://hooks.example.org/${key.id}`, events: ["lead.created"], secretSealed: "sealed" });
    }
    await revokeBusinessKey(database.db, { businessId: shop.id, keyId: revoked.id });
    const { webhooks: listed } = await listBusinessWebhooks(database.db, shop.id);
    expect(listed.map((webhook) => webhook.url)).toEqual([`https://hooks.example.org/${kept.id}`]);
  });
});
