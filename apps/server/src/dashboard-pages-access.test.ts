import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtpServer, type TestSmtpServer } from "@directory/api/testing";
// The tRPC matrix's world, people, rules and preparations: the pages are the same procedures behind forms, so one table of who may do what serves both.
import {
  ACTIONS,
  buildWorld,
  expectedOutcome,
  fresh,
  PEOPLE,
  snapshot,
  type PersonName,
  type World,
} from "../../../packages/api/src/routers/owner/dashboard-access-fixtures";
import { getPage, postForm, signInThroughPages, type PageAnswer, type PageSession } from "./account-pages-fixtures";
import { newKeyOn } from "./owner-dashboard-fixtures";
import { SMALL_TEST_WORLD, startTestServer, type TestServer } from "./testing";

/**
 * The dashboards' access matrix on the pages (issue 40, Security): every person (owner, co-owner,
 * agency owner and member with access, a member of an agency without it, a stranger, signed out)
 * against every page and form of /dashboard/business/{slug} and /dashboard/agency/{agencySlug},
 * each signed in through the pages and posting with their own session's CSRF token. Those allowed
 * get the page or its redirect; the others 403 or 404 (signed out: /sign-in, or 401 for a form),
 * and the claims, keys, owners, members, agencies' access and leads stay exactly as they were.
 */

let server: TestServer;
let smtp: TestSmtpServer;
let world: World;
const sessions = {} as Record<Exclude<PersonName, "signedOut">, PageSession>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  server = await startTestServer({
    seed: SMALL_TEST_WORLD,
    smtpUrl: smtp.url,
    rateLimits: { signInMailsPerClientPerHour: 1000, openPerMinute: 10_000, anonymousPerDay: 1_000_000 },
  });
  world = await buildWorld(server.database, smtp, "pages");
  // Each person's own browser session, opened through the sign-in pages (the world's tRPC sessions stay unused here).
  for (const person of PEOPLE) {
    if (person !== "signedOut") sessions[person] = await signInThroughPages(server.url, smtp, world.people[person].email);
  }
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

interface PageAction {
  /** The page, or the form's button as the person sees it. */
  name: string;
  /** The matrix's procedure the page or form calls: who may, whether it writes, and what it acts on. */
  procedure: string;
  /** Which dashboard, and the form's action under it ("" for the page itself). */
  page: "business" | "agency";
  step: string;
  /** The form's fields besides the CSRF token, given what the preparation made; none: a GET. */
  fields?: (prepared: string) => Record<string, string>;
  /** What an allowed person gets: the page (200, as a new key's page is) or the redirect back to it. */
  allowed: 200 | 303;
  /** An allowed invitation mails the person invited: read it, so each mail is accounted for. */
  mails?: true;
}

const business = (step = "") => ({ page: "business", step }) as const;
const agency = (step = "") => ({ page: "agency", step }) as const;

/** The dashboard's own path in the world: where an allowed form's redirect leads back to. */
const pagePath = (action: PageAction) => (action.page === "business" ? `/dashboard/business/${world.listing.slug}` : `/dashboard/agency/${world.agency.slug}`);

const PAGE_ACTIONS: PageAction[] = [
  { name: "the business dashboard", procedure: "owner.overview", ...business(), allowed: 200 },
  { name: "Save (edit facts)", procedure: "owner.updateListing", ...business("/listing"), fields: () => ({ tagline: `Page ${fresh()}` }), allowed: 303 },
  { name: "Create key (business)", procedure: "owner.keys.create", ...business("/keys"), fields: () => ({ label: `page key ${fresh()}` }), allowed: 200 },
  { name: "Revoke (business key)", procedure: "owner.keys.revoke", ...business("/keys/revoke"), fields: (id) => ({ id }), allowed: 303 },
  { name: "Move lead", procedure: "leads.transition", ...business("/leads"), fields: (leadId) => ({ leadId, status: "contacted" }), allowed: 303 },
  { name: "Invite (co-owner)", procedure: "owner.coOwners.invite", ...business("/co-owners"), fields: (email) => ({ email }), allowed: 303, mails: true },
  { name: "Remove (co-owner)", procedure: "owner.coOwners.remove", ...business("/co-owners/remove"), fields: (email) => ({ email }), allowed: 303 },
  { name: "Grant access", procedure: "owner.agencies.grant", ...business("/agencies"), fields: (agencySlug) => ({ agencySlug }), allowed: 303 },
  {
    name: "Withdraw (agency)",
    procedure: "owner.agencies.withdraw",
    ...business("/agencies/withdraw"),
    fields: (agencySlug) => ({ agencySlug }),
    allowed: 303,
  },
  { name: "the agency dashboard", procedure: "agency.overview", ...agency(), allowed: 200 },
  {
    name: "Invite (agency member)",
    procedure: "agency.members.invite",
    ...agency("/members"),
    fields: (email) => ({ email, role: "member" }),
    allowed: 303,
    mails: true,
  },
  { name: "Remove (agency member)", procedure: "agency.members.remove", ...agency("/members/remove"), fields: (email) => ({ email }), allowed: 303 },
  { name: "Create key (agency)", procedure: "agency.keys.create", ...agency("/keys"), fields: () => ({ label: `agency page key ${fresh()}` }), allowed: 200 },
  { name: "Revoke (agency key)", procedure: "agency.keys.revoke", ...agency("/keys/revoke"), fields: (id) => ({ id }), allowed: 303 },
];

/** The procedure's row of the tRPC matrix; a page naming one the matrix lacks is a mistake in this table. */
function matrixRow(procedure: string) {
  const row = ACTIONS.find((action) => action.name === procedure);
  if (!row) throw new Error(`${procedure} is not in the tRPC access matrix`);
  return row;
}

/** The page's request as the person's browser makes it: their cookie and, for a form, their own session's CSRF token. */
function request(action: PageAction, person: PersonName, prepared: string): Promise<PageAnswer> {
  const session = person === "signedOut" ? null : sessions[person];
  const path = `${pagePath(action)}${action.step}`;
  if (!action.fields) return getPage(server.url, path, session?.cookie);
  const fields = { ...action.fields(prepared), ...(session ? { csrfToken: session.csrfToken } : {}) };
  return postForm(server.url, path, fields, session ? { cookie: session.cookie } : {});
}

/** The status the person's request must get, from the matrix's rule for the procedure. */
function expectedStatus(action: PageAction, person: PersonName): number {
  const outcome = expectedOutcome(person, matrixRow(action.procedure).access);
  if (outcome === "ok") return action.allowed;
  // Signed out, a page sends the visitor to sign in; a form cannot be carried over, so it is refused.
  if (outcome === "UNAUTHORIZED") return action.fields ? 401 : 303;
  return outcome === "FORBIDDEN" ? 403 : 404;
}

it("covers every action of the tRPC matrix that a dashboard page or form calls", () => {
  for (const action of PAGE_ACTIONS) expect(matrixRow(action.procedure).name).toBe(action.procedure);
  // Each person is someone distinct: a session per signed-in person, none for the signed-out visitor.
  expect(Object.keys(sessions).sort()).toEqual(PEOPLE.filter((person) => person !== "signedOut").sort());
});

describe.each(PAGE_ACTIONS)("$name", (action) => {
  it.each(PEOPLE)("as %s: allowed ones succeed, others are refused and change nothing", async (person) => {
    const row = matrixRow(action.procedure);
    const prepared = row.prepare ? await row.prepare(world) : "";
    const before = await snapshot(server.database.db, world.listing.id);
    const answer = await request(action, person, prepared);
    const status = expectedStatus(action, person);
    expect(answer.status, answer.body.slice(0, 500)).toBe(status);

    const allowed = expectedOutcome(person, row.access) === "ok";
    if (allowed && status === 303) expect(answer.headers.get("location")).toMatch(new RegExp(`^${pagePath(action)}[?#]`));
    if (!allowed && status === 303) expect(answer.headers.get("location")).toBe("/sign-in");
    if (allowed && action.fields && status === 200) expect(newKeyOn(answer.body)).toBeTruthy();
    if (!allowed) expect(newKeyOn(answer.body)).toBeNull();
    if (allowed && action.mails) await smtp.nextMail(prepared);

    const after = await snapshot(server.database.db, world.listing.id);
    // A page never writes; an allowed form must have written (so a form that silently does nothing fails too).
    if (allowed && row.mutation) expect(after).not.toEqual(before);
    else expect(after).toEqual(before);
  });
});
