import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agencies, agencyMembers } from "@directory/db";
import { authenticateApiKey } from "../../services/access/api-keys";
import { setPlan } from "../../services/accounts/plans";
import { AGENCIES_CREATED_MAX } from "../../services/agencies/agencies";
import { startTestSmtpServer, type TestSmtpServer } from "../../services/mail/test-smtp-server";
import { keyedCaller } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { claimCaller, refusal, signInPerson, type Person } from "../ownership/ownership-fixtures";

/** agency.*: creating agencies, their members, their developer keys and plan; real sessions, database and SMTP server. */

let database: TestDatabase;
let smtp: TestSmtpServer;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await smtp?.close();
  await database?.destroy();
});

let n = 0;
const person = () => signInPerson(database, smtp, `person${++n}@agency.test`);
const as = (who: Person) => claimCaller(database, smtp, who);

async function agencyRows() {
  const [agencyCount] = await database.db.select({ n: count() }).from(agencies);
  const members = await database.db.select().from(agencyMembers).orderBy(agencyMembers.agencyId, agencyMembers.accountId);
  return { agencies: agencyCount!.n, members };
}

async function holderOf(agencySlug: string): Promise<string> {
  const [row] = await database.db.select({ accountId: agencies.accountId }).from(agencies).where(eq(agencies.slug, agencySlug));
  return row!.accountId;
}

describe("creating an agency", () => {
  it("takes its slug from the name, -2 on a clash, and makes the creator its owner", async () => {
    const first = await person();
    const second = await person();
    expect(await as(first).agency.create({ name: "Northwind Marketing & Co." })).toEqual({
      slug: "northwind-marketing-co",
      name: "Northwind Marketing & Co.",
      role: "owner",
    });
    expect(await as(second).agency.create({ name: "Northwind Marketing & Co." })).toMatchObject({ slug: "northwind-marketing-co-2", role: "owner" });
    const overview = await as(second).agency.overview({ agencySlug: "northwind-marketing-co-2" });
    expect(overview).toMatchObject({ agency: { slug: "northwind-marketing-co-2", role: "owner" }, businesses: [], plan: null });
    expect(overview.members.map((member) => [member.email, member.role])).toEqual([[second.email, "owner"]]);
    expect((await refusal(as(first).agency.overview({ agencySlug: "northwind-marketing-co-2" }))).code).toBe("NOT_FOUND");
  });

  it(`stops at ${AGENCIES_CREATED_MAX} per person, writing nothing more`, async () => {
    const busy = await person();
    for (let i = 1; i <= AGENCIES_CREATED_MAX; i += 1) await as(busy).agency.create({ name: `Busy Agency ${i}` });
    const before = await agencyRows();
    expect((await refusal(as(busy).agency.create({ name: "One Too Many" }))).code).toBe("CONFLICT");
    expect(await agencyRows()).toEqual(before);
    expect(await as(await person()).agency.create({ name: "One Too Many" })).toMatchObject({ slug: "one-too-many" });
  });
});

describe("an agency's members", () => {
  it("are invited by mail as members or owners; only owners invite; an address under .invalid is refused", async () => {
    const boss = await person();
    const { slug } = await as(boss).agency.create({ name: "Invite Agency" });
    const member = await person();
    const partner = await person();

    expect(await as(boss).agency.members.invite({ agencySlug: slug, email: member.email })).toMatchObject({ email: member.email, role: "member" });
    const mail = await smtp.nextMail(member.email);
    expect(mail.subject).toBe("You are now a member of Invite Agency");
    expect(mail.text).toContain(`/dashboard/agency/${slug}`);
    await as(boss).agency.members.invite({ agencySlug: slug, email: partner.email.toUpperCase(), role: "owner" });
    expect((await smtp.nextMail(partner.email)).subject).toBe("You are now an owner of Invite Agency");

    const before = await agencyRows();
    expect((await refusal(as(boss).agency.members.invite({ agencySlug: slug, email: "someone@agencies.invalid" }))).code).toBe("BAD_REQUEST");
    expect((await refusal(as(member).agency.members.invite({ agencySlug: slug, email: "friend@agency.test" }))).code).toBe("FORBIDDEN");
    expect(await agencyRows()).toEqual(before);

    await as(partner).agency.members.invite({ agencySlug: slug, email: "newcomer@agency.test" });
    await smtp.nextMail("newcomer@agency.test");
    const members = (await as(member).agency.overview({ agencySlug: slug })).members;
    expect(members.map((row) => [row.email, row.role])).toEqual([
      [boss.email, "owner"],
      [member.email, "member"],
      [partner.email, "owner"],
      ["newcomer@agency.test", "member"],
    ]);
  });

  it("are removed by an owner, losing the agency at once; the last owner stays, even against their own re-invitation as a member", async () => {
    const boss = await person();
    const { slug } = await as(boss).agency.create({ name: "Removal Agency" });
    const member = await person();
    await as(boss).agency.members.invite({ agencySlug: slug, email: member.email });
    await smtp.nextMail(member.email);

    expect(await as(boss).agency.members.remove({ agencySlug: slug, email: member.email })).toEqual({ removed: true });
    expect((await refusal(as(member).agency.overview({ agencySlug: slug }))).code).toBe("NOT_FOUND");
    expect(await as(member).account.agencies.list()).toEqual([]);

    const before = await agencyRows();
    expect((await refusal(as(boss).agency.members.remove({ agencySlug: slug, email: boss.email }))).code).toBe("CONFLICT");
    expect((await refusal(as(boss).agency.members.remove({ agencySlug: slug, email: "stranger@agency.test" }))).code).toBe("NOT_FOUND");
    expect((await refusal(as(boss).agency.members.invite({ agencySlug: slug, email: boss.email, role: "member" }))).code).toBe("CONFLICT");
    expect(await agencyRows()).toEqual(before);
    expect((await as(boss).agency.overview({ agencySlug: slug })).agency.role).toBe("owner");
  });
});

describe("an agency's developer keys", () => {
  it("are held by the agency's account: listed on the agency, not on the person's own keys", async () => {
    const boss = await person();
    const { slug } = await as(boss).agency.create({ name: "Keyed Agency" });
    const agencyKey = await as(boss).agency.keys.create({ agencySlug: slug, label: "agency production" });
    const ownKey = await as(boss).account.keys.create({ label: "personal" });

    expect((await as(boss).agency.keys.list({ agencySlug: slug })).map((key) => key.id)).toEqual([agencyKey.id]);
    expect((await as(boss).account.keys.list()).map((key) => key.id)).toEqual([ownKey.id]);
    expect(await authenticateApiKey(database.db, agencyKey.key)).toMatchObject({ kind: "developer", accountId: await holderOf(slug) });
    expect((await refusal(as(boss).agency.keys.revoke({ agencySlug: slug, id: ownKey.id }))).code).toBe("NOT_FOUND");
    expect((await refusal(as(boss).account.keys.revoke({ id: agencyKey.id }))).code).toBe("NOT_FOUND");

    await as(boss).agency.keys.revoke({ agencySlug: slug, id: agencyKey.id });
    expect(await as(boss).agency.keys.list({ agencySlug: slug })).toEqual([]);
    expect((await refusal(keyedCaller(database.db, agencyKey.key).apiKeys.confirmKey())).code).toBe("UNAUTHORIZED");
  });

  it("authenticate and count against the trial quota until the agency has a plan", async () => {
    const boss = await person();
    const { slug } = await as(boss).agency.create({ name: "Trial Agency" });
    const { id, key } = await as(boss).agency.keys.create({ agencySlug: slug, label: "trial" });
    expect(await keyedCaller(database.db, key).apiKeys.confirmKey()).toEqual({ keyed: true });
    expect(await as(boss).agency.keys.list({ agencySlug: slug })).toMatchObject([{ id, usedThisMonth: 1, monthlyLimit: 100 }]);
    expect(await authenticateApiKey(database.db, key)).toMatchObject({ onTrial: true });

    await setPlan(database.db, await holderOf(slug), { status: "active", activeUntil: new Date(Date.now() + 30 * 86_400_000), source: "operator" });
    expect(await authenticateApiKey(database.db, key)).toMatchObject({ onTrial: false });
    expect(await as(boss).agency.keys.list({ agencySlug: slug })).toMatchObject([{ id, monthlyLimit: 10_000 }]);
    expect((await as(boss).agency.overview({ agencySlug: slug })).plan).toMatchObject({ name: "developer" });
    // The plan is the agency's: the person's own keys stay on the trial.
    const own = await as(boss).account.keys.create({ label: "personal" });
    expect(await authenticateApiKey(database.db, own.key)).toMatchObject({ onTrial: true });
  });
});

describe("account.agencies.list", () => {
  it("lists the person's agencies by name with their role in each, and no one else's", async () => {
    const alice = await person();
    const bob = await person();
    const own = await as(alice).agency.create({ name: "Zebra Studio" });
    const theirs = await as(bob).agency.create({ name: "Aardvark Agency" });
    await as(bob).agency.members.invite({ agencySlug: theirs.slug, email: alice.email });
    await smtp.nextMail(alice.email);
    await as(bob).agency.create({ name: "Bob Only" });

    expect(await as(alice).account.agencies.list()).toEqual([
      { slug: theirs.slug, name: "Aardvark Agency", role: "member" },
      { slug: own.slug, name: "Zebra Studio", role: "owner" },
    ]);
  });
});
