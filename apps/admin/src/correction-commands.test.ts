import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, claims } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "@directory/server/testing";

/** directory-admin corrections list|accept|reject, as installed, against a live server. */

const run = promisify(execFile);
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

async function propose(slug: string, value: string) {
  const response = await fetch(`${server.url}/api/v2/corrections`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ slug, property: "website", value, evidence: "their new sign" }),
  });
  return ((await response.json()) as { correctionId: string }).correctionId;
}

describe("directory-admin corrections", () => {
  it("lists pending corrections as JSON, accepts one into an admin-verified claim, rejects another, and refuses a decided one", async () => {
    const rows = await server.database.db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(eq(businesses.status, "active"))
      .orderBy(asc(businesses.slug))
      .limit(2);
    const accepted = await propose(rows[0]!.slug, "https://accepted.example/");
    const rejected = await propose(rows[1]!.slug, "https://rejected.example/");
    const listed = JSON.parse((await admin("corrections", "list", "--json")).stdout) as { corrections: { correctionId: string; evidence: string }[] };
    expect(listed.corrections.map((c) => c.correctionId)).toEqual(expect.arrayContaining([accepted, rejected]));
    expect(JSON.stringify(listed)).not.toMatch(/submitter/);

    expect((await admin("corrections", "accept", accepted)).stdout).toMatch(new RegExp(`^${accepted}\taccepted\t${rows[0]!.slug}\twebsite\tclaim `));
    const [current] = await server.database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, rows[0]!.id), eq(claims.property, "website"), isNull(claims.supersededAt)));
    expect(current).toMatchObject({ value: "https://accepted.example/", source: `correction:${accepted}`, verification: "admin_verified" });
    expect(JSON.parse((await admin("corrections", "reject", rejected, "--json")).stdout)).toMatchObject({ status: "rejected" });
    await expect(admin("corrections", "accept", rejected)).rejects.toMatchObject({ stderr: expect.stringMatching(/already rejected.*HTTP 409/) });
  });
});
