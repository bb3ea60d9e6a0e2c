import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, businesses } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { createApiKey } from "./api-keys";
import { generateApiKey, hashApiKey, parseApiKey } from "./api-key-format";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));

describe("API key format", () => {
  it("has the service prefix, the kind, 128+ random bits and a checksum", () => {
    const key = generateApiKey("partner");
    expect(key).toMatch(/^bdk_ptr_[0-9A-Za-z]{28}$/);
    expect(parseApiKey(key)).toBe("partner");
    expect(new Set(Array.from({ length: 200 }, () => generateApiKey("developer"))).size).toBe(200);
  });

  it("rejects every single-character typo by checksum alone", () => {
    const key = generateApiKey("developer");
    let rejected = 0;
    for (let i = "bdk_dev_".length; i < key.length; i++) {
      const typo = key.slice(0, i) + (key[i] === "x" ? "y" : "x") + key.slice(i + 1);
      if (parseApiKey(typo) === null) rejected++;
    }
    expect(rejected).toBe(key.length - "bdk_dev_".length);
    expect(parseApiKey(key.replace("_dev_", "_adm_"))).toBeNull();
  });
});

describe("keys at rest and in use", () => {
  it("stores only a hash and a short visible prefix", async () => {
    const { key, apiKey } = await createApiKey(database.db, { kind: "developer" });
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.keyHash).toBe(hashApiKey(key));
    expect(key.startsWith(row!.visiblePrefix)).toBe(true);
    expect(row!.visiblePrefix.length).toBeLessThan(key.length / 2);
  });

  it("lets only admin keys manage keys", async () => {
    const { key: admin } = await createApiKey(database.db, { kind: "admin" });
    const [business] = await database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
    for (const kind of ["developer", "partner"] as const) {
      const { key } = await createApiKey(database.db, { kind });
      await expect(callerWith(key).apiKeys.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const { key: businessKey } = await createApiKey(database.db, { kind: "business", businessSlug: business!.slug });
    await expect(callerWith(businessKey).apiKeys.create({ kind: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(callerWith().apiKeys.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(callerWith(admin).apiKeys.list({ limit: 5 })).resolves.toHaveLength(5);
  });

  it("stops accepting a revoked key at once", async () => {
    const { key: admin } = await createApiKey(database.db, { kind: "admin" });
    const { key, apiKey } = await createApiKey(database.db, { kind: "admin" });
    await expect(callerWith(key).apiKeys.list({ limit: 1 })).resolves.toHaveLength(1);
    await callerWith(admin).apiKeys.revoke({ id: apiKey.id });
    await expect(callerWith(key).apiKeys.list({ limit: 1 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuses a well-formed key that was never issued", async () => {
    await expect(callerWith(generateApiKey("admin")).apiKeys.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
