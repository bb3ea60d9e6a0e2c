import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, businesses, ownershipClaims } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "@directory/server/testing";

/** directory-admin claims list|approve and business owners|remove-owner, as installed, against a live server. */

const run = promisify(execFile);
// The command as installed: plain node on the bundle, built first when a source changed.
const bin = fileURLToPath(new URL("../bin/directory-admin.mjs", import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

function admin(...args: string[]) {
  return run(process.execPath, [bin, "--url", server.url, "--key", server.adminKey, ...args], { env: { ...process.env, DIRECTORY_ADMIN_KEY: "" } });
}

describe("directory-admin claims and business owners", () => {
  it("lists a pending claim by review, approves it, shows the owner and removes it: the listing turns unclaimed", async () => {
    const { db } = server.database;
    const [business] = await db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const email = "cli-claimant@example.org";
    // The people's side writes these rows; here they are the test's setup.
    const [account] = await db.insert(accounts).values({ email }).returning();
    const [claim] = await db
      .insert(ownershipClaims)
      .values({ businessId: business!.id, accountId: account!.id, method: "review", evidence: "The owner's letter,\nsigned." })
      .returning();

    const pending = JSON.parse((await admin("claims", "list", "--json")).stdout);
    expect(pending).toContainEqual(
      expect.objectContaining({
        id: claim!.id,
        email,
        method: "review",
        status: "pending",
        agencySlug: null,
        business: expect.objectContaining({ slug: business!.slug }),
      }),
    );
    const line = (await admin("claims", "list")).stdout.split("\n").find((row) => row.startsWith(claim!.id));
    expect(line?.split("\t").slice(4, 7)).toEqual([business!.slug, email, "-"]);

    expect((await admin("claims", "approve", claim!.id)).stdout.trim()).toBe(`approved ${claim!.id}: ${email} owns ${business!.slug}`);

    const owners = JSON.parse((await admin("business", "owners", business!.slug, "--json")).stdout);
    expect(owners).toMatchObject({
      slug: business!.slug,
      ownership: "owner_verified",
      owners: [{ email, method: "review", decidedBy: "operator", removedAt: null }],
    });

    expect((await admin("business", "remove-owner", business!.slug, email)).stdout.trim()).toBe(
      `removed ${email} from ${business!.slug}: 0 owners left, unclaimed`,
    );
    const [after] = await db.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, business!.id));
    expect(after!.ownership).toBe("unclaimed");
  });
});
