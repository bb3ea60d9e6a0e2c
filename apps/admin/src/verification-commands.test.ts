import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, claims } from "@directory/db";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "@directory/server/testing";

/** directory-admin claim verify, business verify-owner and business add, as installed, against a live server. */

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../bin/directory-admin.mjs", import.meta.url));

let server: TestServer;
let scratch: string;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  scratch = mkdtempSync(path.join(tmpdir(), "directory-admin-"));
});
afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function admin(...args: string[]) {
  return run(process.execPath, [bin, "--url", server.url, "--key", server.adminKey, ...args], { env: { ...process.env, DIRECTORY_ADMIN_KEY: "" } });
}

function file(name: string, content: string): string {
  const target = path.join(scratch, name);
  writeFileSync(target, content);
  return target;
}

async function unclaimed(offset: number) {
  const [row] = await server.database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "unclaimed")))
    .orderBy(asc(businesses.slug))
    .offset(offset)
    .limit(1);
  return row!;
}

describe("directory-admin claim verify", () => {
  it("makes the current value admin-verified, says so the second time, and refuses unknown slugs and properties", async () => {
    const business = await unclaimed(0);
    const { stdout } = await admin("claim", "verify", business.slug, "phone");
    expect(stdout).toMatch(new RegExp(`^${business.slug}\tphone=".+"\tadmin_verified \\(was registry from demo:business-registry\\)`));
    const [current] = await server.database.db
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "phone"), isNull(claims.supersededAt)));
    expect(current).toMatchObject({ verification: "admin_verified", source: "admin:verify" });
    const again = JSON.parse((await admin("claim", "verify", business.slug, "phone", "--json")).stdout);
    expect(again).toMatchObject({ verified: false, claim: { id: current!.id } });
    await expect(admin("claim", "verify", "no-such-business-zz", "phone")).rejects.toMatchObject({ stderr: expect.stringMatching(/No business.*HTTP 404/) });
    await expect(admin("claim", "verify", business.slug, "shoeSize")).rejects.toMatchObject({ stderr: expect.stringMatching(/property.*HTTP 400/) });
  });
});

describe("directory-admin business verify-owner", () => {
  it("turns the listing owner_verified, once", async () => {
    const business = await unclaimed(1);
    expect((await admin("business", "verify-owner", business.slug)).stdout).toMatch(new RegExp(`^${business.slug}\t.+\towner_verified\n$`));
    const [row] = await server.database.db.select({ ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, business.id));
    expect(row?.ownership).toBe("owner_verified");
    expect((await admin("business", "verify-owner", business.slug)).stdout).toMatch(/already; nothing written/);
  });
});

describe("directory-admin business add --file", () => {
  it("creates the business and prints its slug and id; --json prints one object", async () => {
    const plain = await admin(
      "business",
      "add",
      "--file",
      file("a.json", JSON.stringify({ name: "Lantern Street Dental", category: "dentist", city: "mumbai-in" })),
    );
    const [slug, id] = plain.stdout.trim().split("\t");
    expect(slug).toBe("lantern-street-dental-mumbai");
    const [row] = await server.database.db.select({ slug: businesses.slug, ownership: businesses.ownership }).from(businesses).where(eq(businesses.id, id!));
    expect(row).toEqual({ slug, ownership: "unclaimed" });

    const body = { name: "Lantern Street Dental", category: "dentist", city: "mumbai-in", phone: "+91 22 7000 0001", services: ["Implants"] };
    const json = JSON.parse((await admin("business", "add", "--file", file("b.json", JSON.stringify(body)), "--json")).stdout);
    expect(json).toEqual({ id: expect.any(String), slug: "lantern-street-dental-mumbai-2", ownership: "unclaimed" });
    const response = await fetch(`${server.url}/api/v2/entity-profile?slug=${json.slug}`);
    expect(((await response.json()) as { contact: { phone: string } }).contact.phone).toBe("+91 22 7000 0001");
  });

  it("reads the city as search does: a name with its country code, or an alias", async () => {
    for (const [name, city] of [
      ["Harbour Dental", "Mumbai, IN"],
      ["Bay Dental", "bombay"],
    ]) {
      const created = await admin("business", "add", "--file", file(`${name}.json`, JSON.stringify({ name, category: "dentist", city })));
      const [slug] = created.stdout.trim().split("\t");
      const [row] = await server.database.db
        .select({ city: cities.slug })
        .from(businesses)
        .innerJoin(cities, eq(cities.id, businesses.cityId))
        .where(eq(businesses.slug, slug!));
      expect(row, city).toEqual({ city: "mumbai-in" });
    }
  });

  it("refuses a missing file, a file that is not JSON and invalid fields with a clear error and a non-zero exit, creating nothing", async () => {
    const before = await server.database.db.$count(businesses);
    const cases: [string, RegExp][] = [
      [path.join(scratch, "absent.json"), /cannot read .*absent\.json: no such file/],
      [file("bad.json", "{ name: "), /bad\.json is not JSON/],
      [file("list.json", "[]"), /must hold one JSON object/],
      [file("phone.json", JSON.stringify({ name: "X", category: "dentist", city: "mumbai-in", phone: "12" })), /phone.*HTTP 400/],
      [file("city.json", JSON.stringify({ name: "X", category: "dentist", city: "atlantis-zz" })), /city.*atlantis-zz.*HTTP 400/],
      [file("country.json", JSON.stringify({ name: "X", category: "dentist", city: "Mumbai, FR" })), /"Mumbai, IN".*HTTP 400/],
      [file("extra.json", JSON.stringify({ name: "X", category: "dentist", city: "mumbai-in", rating: 5 })), /rating.*HTTP 400/],
      [file("missing.json", JSON.stringify({ category: "dentist", city: "mumbai-in" })), /name.*HTTP 400/],
    ];
    for (const [target, message] of cases) {
      const failure = await admin("business", "add", "--file", target).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure, target).not.toBeNull();
      expect(failure!.code, target).not.toBe(0);
      expect(failure!.stderr, target).toMatch(message);
      expect(failure!.stderr, target).not.toMatch(/\n\s+at /);
    }
    expect(await server.database.db.$count(businesses)).toBe(before);
  });
});
