import { and, count, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, claims, slugHistory } from "@directory/db";
import type { TEntityProfile, TGetAgentProfileOutput } from "@directory/api/schemas";
import { getJson } from "./testing";
import {
  admin,
  db,
  developerKey,
  expectNoEvent,
  expectOneEvent,
  failureOf,
  feedOf,
  outboxOf,
  pickTarget,
  searchListings,
  server,
  statusesOf,
  useLifecycleServer,
} from "./lifecycle-fixtures";

/** A new name or a new slug: the id stays, the old one stays in history or keeps resolving. */

useLifecycleServer();

describe("rename", () => {
  it("keeps the id and slug, makes the new name a current admin-verified claim, and keeps the old one in history", async () => {
    const target = await pickTarget();
    const [oldClaim] = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(oldClaim?.value).toBe(target.name);
    const byIdBefore = await getJson<TEntityProfile>(server.url, `/entity/${target.id}?format=json`);
    expect(byIdBefore.body.identity.name).toBe(target.name);

    const newName = `${target.name} (renamed)`;
    const summary = await expectOneEvent(target.id, "claims", () => admin().lifecycle.rename.mutate({ slug: target.slug, name: newName }));
    expect(summary).toMatchObject({ id: target.id, slug: target.slug, name: newName, status: "active", decommissioned: false });
    expect((await outboxOf(target.id)).at(-1)?.payload).toMatchObject({ properties: ["name"] });

    const byId = await getJson<TEntityProfile>(server.url, `/entity/${target.id}?format=json`);
    expect(byId.status).toBe(200);
    expect(byId.body.identity).toMatchObject({ id: target.id, slug: target.slug, name: newName });

    const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(profile.status).toBe(200);
    expect(profile.body.identity).toMatchObject({ id: target.id, slug: target.slug, name: newName });
    expect(profile.body.structuredData.name).toBe(newName);
    const currentNames = profile.body.claims.filter((c) => c.property === "name");
    expect(currentNames).toHaveLength(1);
    const newClaim = currentNames[0]!;
    expect(newClaim).toMatchObject({ value: newName, verification: "admin_verified", supersededAt: null, supersededBy: null });
    expect(newClaim.id).not.toBe(oldClaim!.id);

    const anonymousHistory = await getJson(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`);
    expect(anonymousHistory.status).toBe(401);
    const history = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`, {
      authorization: `Bearer ${developerKey}`,
    });
    expect(history.status).toBe(200);
    const nameClaims = history.body.claims.filter((c) => c.property === "name");
    const superseded = nameClaims.find((c) => c.id === oldClaim!.id);
    expect(superseded).toMatchObject({ value: target.name, supersededBy: newClaim.id });
    expect(superseded!.supersededAt).toEqual(expect.any(String));
    expect(nameClaims.find((c) => c.id === newClaim.id)).toMatchObject({ value: newName, supersededAt: null });

    const agent = await getJson<TGetAgentProfileOutput>(server.url, `/business/${target.slug}/agent.json`);
    expect(agent.status).toBe(200);
    expect(agent.body.entity.name).toBe(newName);
    const listing = (await searchListings(target)).find((l) => l.id === target.id);
    expect(listing?.name).toBe(newName);
    expect((await feedOf(target)).locations.get(target.id)?.name).toBe(newName);

    // The same name again is not a change: no claim, no event.
    await expectNoEvent(() => admin().lifecycle.rename.mutate({ slug: target.slug, name: newName }));
    const [currentCount] = await db()
      .select({ n: count() })
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(currentCount?.n).toBe(1);
  });
});

describe("change of slug", () => {
  it("serves the new slug, keeps the old one resolving to the same id, and leaves /entity/{id} unchanged", async () => {
    const target = await pickTarget();
    const oldSlug = target.slug;
    const newSlug = `${oldSlug}-moved`;
    const byIdBefore = await getJson<TEntityProfile>(server.url, `/entity/${target.id}?format=json`);
    const agentBefore = await getJson<TGetAgentProfileOutput>(server.url, `/business/${oldSlug}/agent.json`);

    const summary = await expectOneEvent(target.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: oldSlug, newSlug }));
    expect(summary).toMatchObject({ id: target.id, slug: newSlug, name: target.name, status: "active" });
    expect((await outboxOf(target.id)).at(-1)?.payload).toMatchObject({ slug: newSlug });

    for (const slug of [newSlug, oldSlug]) {
      const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
      expect(profile.status, slug).toBe(200);
      expect(profile.body.identity, slug).toMatchObject({ id: target.id, slug: newSlug, name: target.name });
      const agent = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`);
      expect(agent.status, slug).toBe(200);
      expect(agent.body.entity.name).toBe(target.name);
      expect(agent.body.contact).toEqual(agentBefore.body.contact);
    }
    const [history] = await db().select().from(slugHistory).where(eq(slugHistory.slug, oldSlug));
    expect(history?.businessId).toBe(target.id);

    const byId = await getJson<TEntityProfile>(server.url, `/entity/${target.id}?format=json`);
    expect(byId.status).toBe(200);
    expect(byId.body.identity).toEqual({ ...byIdBefore.body.identity, slug: newSlug, updatedAt: byId.body.identity.updatedAt });
    expect(byId.body.claims).toEqual(byIdBefore.body.claims);
    expect(byId.body.contact).toEqual(byIdBefore.body.contact);

    const listing = (await searchListings(target)).find((l) => l.id === target.id);
    expect(listing?.profileUrl).toBe(`http://directory.test/business/${newSlug}`);
    expect((await feedOf(target)).locations.get(target.id)?.sameAs).toEqual([`http://directory.test/business/${newSlug}`]);

    // Back to the old slug: allowed (it is its own), and the intermediate one keeps resolving.
    await expectOneEvent(target.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: newSlug, newSlug: oldSlug }));
    for (const slug of [oldSlug, newSlug]) {
      const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`);
      expect(profile.body.identity, slug).toMatchObject({ id: target.id, slug: oldSlug });
    }
  });

  it("refuses a slug used by another business (now or before), an invalid slug, and an unknown business", async () => {
    const target = await pickTarget();
    const [other] = await db()
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(sql`${businesses.id} <> ${target.id}`, eq(businesses.status, "active")))
      .limit(1);
    const taken = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: other!.slug })));
    expect(taken).toMatchObject({ status: 409, code: "CONFLICT" });

    // A slug another business used to have still resolves to that business, so it is taken too.
    const retiredSlug = `${other!.slug}-former`;
    await expectOneEvent(other!.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: other!.slug, newSlug: retiredSlug }));
    await expectOneEvent(other!.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: retiredSlug, newSlug: other!.slug }));
    const retired = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: retiredSlug })));
    expect(retired).toMatchObject({ status: 409, code: "CONFLICT" });

    for (const newSlug of ["Bad Slug!", "UPPER", "double--hyphen", "-leading", "trailing-"]) {
      const invalid = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug })));
      expect(invalid, newSlug).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    }

    const unknown = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: "no-such-business-anywhere", newSlug: "fresh-slug" })));
    expect(unknown).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const unknownCalls = await expectNoEvent(() =>
      Promise.all([
        failureOf(admin().lifecycle.decommission.mutate({ slug: "no-such-business-anywhere" })),
        failureOf(admin().lifecycle.reactivate.mutate({ slug: "no-such-business-anywhere" })),
        failureOf(admin().lifecycle.rename.mutate({ slug: "no-such-business-anywhere", name: "Nobody" })),
      ]),
    );
    for (const failure of unknownCalls) expect(failure).toMatchObject({ status: 404, code: "NOT_FOUND" });

    const [row] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.slug).toBe(target.slug);
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
  });
});
