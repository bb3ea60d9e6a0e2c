import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { type ErrorBody, getJson } from "./testing";
import {
  admin,
  db,
  expectNoEvent,
  expectOneEvent,
  failureOf,
  feedOf,
  inSearch,
  pickTarget,
  server,
  statusesOf,
  useLifecycleServer,
} from "./lifecycle-fixtures";

/** Taking a business out and bringing it back: decommission, expiry and reactivation. */

useLifecycleServer();

describe("decommission and reactivate", () => {
  it("takes a business out of the profile, agent.json, search and the feed, and brings it back", async () => {
    const target = await pickTarget();
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBefore = await feedOf(target);
    expect(feedBefore.ids.has(target.id)).toBe(true);

    const summary = await expectOneEvent(target.id, "status", () => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    expect(summary).toMatchObject({ id: target.id, slug: target.slug, status: "inactive", decommissioned: true });

    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });
    const profile = await getJson<ErrorBody>(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(profile.body.code).toBe("ENTITY_DECOMMISSIONED");
    expect((await getJson(server.url, `/entity/${target.id}?format=json`)).status).toBe(410);
    expect(await inSearch(target)).toBe(false);
    const feedGone = await feedOf(target);
    expect(feedGone.ids.has(target.id)).toBe(false);
    expect(feedGone.total).toBe(feedBefore.total - 1);

    // Decommissioning it again is not a change: no second event.
    const again = await expectNoEvent(() => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    expect(again).toMatchObject({ status: "inactive", decommissioned: true });

    const back = await expectOneEvent(target.id, "status", () => admin().lifecycle.reactivate.mutate({ slug: target.slug }));
    expect(back).toMatchObject({ id: target.id, status: "active", decommissioned: false });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBack = await feedOf(target);
    expect(feedBack.ids.has(target.id)).toBe(true);
    expect(feedBack.total).toBe(feedBefore.total);
  });
});

describe("an expired subscription", () => {
  it("is 410 until reactivated with a renewal; reactivating without one is a 409", async () => {
    const target = await pickTarget();
    const feedBefore = await feedOf(target);
    await db()
      .update(businesses)
      .set({ subscriptionExpiresAt: new Date(Date.now() - 24 * 3600 * 1000) })
      .where(eq(businesses.id, target.id));

    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });
    expect(await inSearch(target)).toBe(false);
    const feedGone = await feedOf(target);
    expect(feedGone.ids.has(target.id)).toBe(false);
    expect(feedGone.total).toBe(feedBefore.total - 1);

    const conflict = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug })));
    expect(conflict).toMatchObject({ status: 409, code: "CONFLICT", error: expect.stringContaining("subscriptionExpiresAt") });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const past = new Date(Date.now() - 3600 * 1000).toISOString();
    const inThePast = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: past })));
    expect(inThePast).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    const notADate = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: "next year" })));
    expect(notADate).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const renewUntil = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const renewed = await expectOneEvent(target.id, "subscription", () =>
      admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: renewUntil.toISOString() }),
    );
    expect(renewed).toMatchObject({ id: target.id, status: "active", decommissioned: false, subscriptionExpiresAt: renewUntil.toISOString() });
    const [row] = await db().select({ expiresAt: businesses.subscriptionExpiresAt }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.expiresAt?.toISOString()).toBe(renewUntil.toISOString());

    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBack = await feedOf(target);
    expect(feedBack.ids.has(target.id)).toBe(true);
    expect(feedBack.total).toBe(feedBefore.total);
  });

  it("of a decommissioned business needs the renewal too, and one call brings it back", async () => {
    const target = await pickTarget();
    await expectOneEvent(target.id, "status", () => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    await db()
      .update(businesses)
      .set({ subscriptionExpiresAt: new Date(Date.now() - 3600 * 1000) })
      .where(eq(businesses.id, target.id));
    const conflict = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug })));
    expect(conflict).toMatchObject({ status: 409, code: "CONFLICT" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const renewUntil = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const back = await expectOneEvent(target.id, "subscription", () =>
      admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: renewUntil }),
    );
    expect(back).toMatchObject({ status: "active", decommissioned: false, subscriptionExpiresAt: renewUntil });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    expect((await feedOf(target)).ids.has(target.id)).toBe(true);
  });
});
