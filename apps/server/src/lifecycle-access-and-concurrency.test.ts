import { and, asc, eq, isNull, notInArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, claims } from "@directory/db";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import {
  admin,
  db,
  developerKey,
  failureOf,
  outboxOf,
  outboxTotal,
  partnerKey,
  pickTarget,
  server,
  statusesOf,
  used,
  useLifecycleServer,
} from "./lifecycle-fixtures";

/** Who may change a business's lifecycle, and what two changes at once leave behind. */

useLifecycleServer();

describe("lifecycle authorization", () => {
  it("is FORBIDDEN for developer and partner keys and UNAUTHORIZED without a key, changing nothing", async () => {
    const target = await pickTarget();
    const callers = [
      { key: developerKey, status: 403, code: "FORBIDDEN" },
      { key: partnerKey, status: 403, code: "FORBIDDEN" },
      { key: undefined, status: 401, code: "UNAUTHORIZED" },
    ];
    const totalBefore = await outboxTotal();
    for (const { key, status, code } of callers) {
      const client = createDirectoryClient({ baseUrl: server.url, apiKey: key });
      const failures = await Promise.all([
        failureOf(client.lifecycle.decommission.mutate({ slug: target.slug })),
        failureOf(client.lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: new Date(Date.now() + 86_400_000).toISOString() })),
        failureOf(client.lifecycle.rename.mutate({ slug: target.slug, name: "Hijacked" })),
        failureOf(client.lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: "hijacked" })),
      ]);
      for (const failure of failures) expect(failure, key ?? "anonymous").toMatchObject({ status, code });
    }
    expect(await outboxTotal()).toBe(totalBefore);
    const [row] = await db().select().from(businesses).where(eq(businesses.id, target.id));
    expect(row).toMatchObject({ slug: target.slug, name: target.name, status: "active" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
  });
});

describe("concurrent lifecycle changes", () => {
  it("a decommission submitted twice at once is one change: one event", async () => {
    const target = await pickTarget();
    const before = (await outboxOf(target.id)).length;
    const [first, second] = await Promise.all([
      admin().lifecycle.decommission.mutate({ slug: target.slug }),
      admin().lifecycle.decommission.mutate({ slug: target.slug }),
    ]);
    expect(first).toMatchObject({ status: "inactive", decommissioned: true });
    expect(second).toMatchObject({ status: "inactive", decommissioned: true });
    const events = (await outboxOf(target.id)).slice(before);
    expect(events.map((e) => e.payload.change)).toEqual(["status"]);
    await admin().lifecycle.reactivate.mutate({ slug: target.slug });
  });

  it("two renames of one business at once never fail with a 500 and leave one current name claim that the listing matches", async () => {
    const target = await pickTarget();
    const before = (await outboxOf(target.id)).length;
    const outcomes = await Promise.allSettled([
      admin().lifecycle.rename.mutate({ slug: target.slug, name: `${target.name} East` }),
      admin().lifecycle.rename.mutate({ slug: target.slug, name: `${target.name} West` }),
    ]);
    const failures = outcomes.filter((o) => o.status === "rejected").map((o) => directoryErrorOf(o.reason));
    for (const failure of failures) expect(failure).toMatchObject({ status: 409, code: "CONFLICT" });
    const current = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(current).toHaveLength(1);
    const [row] = await db().select({ name: businesses.name }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.name).toBe(current[0]!.value);
    expect((await outboxOf(target.id)).length - before).toBe(outcomes.length - failures.length);
  });

  it("two businesses moved to the same free slug at once: one wins, the other is a 409", async () => {
    const [a, b] = await db()
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), used.size > 0 ? notInArray(businesses.id, [...used]) : undefined))
      .orderBy(asc(businesses.slug))
      .limit(2);
    used.add(a!.id).add(b!.id);
    const contested = `${a!.slug}-contested`;
    const totalBefore = await outboxTotal();
    const outcomes = await Promise.allSettled([
      admin().lifecycle.changeSlug.mutate({ slug: a!.slug, newSlug: contested }),
      admin().lifecycle.changeSlug.mutate({ slug: b!.slug, newSlug: contested }),
    ]);
    const failures = outcomes.filter((o) => o.status === "rejected").map((o) => directoryErrorOf(o.reason));
    expect(failures).toEqual([expect.objectContaining({ status: 409, code: "CONFLICT" })]);
    expect(await outboxTotal()).toBe(totalBefore + 1);
    const owners = await db().select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, contested));
    expect(owners).toHaveLength(1);
  });
});
