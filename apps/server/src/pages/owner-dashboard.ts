import express, { type Express, type Request, type RequestHandler, type Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError } from "@directory/api";
import { formField, sendPrivatePage, signedInPerson, type AccountCallers, type AccountHandler, type Me } from "./account-parts";
import type { Caller } from "./errors";
import { pageSecurityHeaders } from "./layout";
import { changedFields, currentValues, EDITABLE_FIELDS } from "./owner-dashboard-facts";
import { dashboardPath } from "./owner-dashboard-lists";
import { dashboardMain, type DashboardData, type DashboardExtras, type DashboardSection } from "./owner-dashboard-views";

/**
 * /dashboard/business/{slug} and its forms. Every read and change is an owner procedure named by
 * the slug; the procedures decide who may (a manager of the listing; co-owners and agencies its
 * owners only), check the session's Origin and CSRF token, and validate. These handlers turn their
 * answers into the page: a change answers with a redirect to the page (so a reload does not post
 * twice) with a notice, and an expected refusal (400, 404, 409) with the page again, saying why and
 * keeping what was typed. Any other refusal (401, 403) is the door's error page.
 */

const slugOf = (req: Request): string => (typeof req.params.slug === "string" ? req.params.slug : "");

function seeOther(res: Response, path: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, path);
}

/** Flash notices, by the `done` a change's redirect carries: fixed texts, so a link cannot make the page say anything. */
const NOTICES: Record<string, { section: DashboardSection; text: string }> = {
  saved: { section: "facts", text: "Your changes were saved: the listing shows them now, stated by the owner." },
  unchanged: { section: "facts", text: "Nothing was changed, so nothing was saved." },
  revoked: { section: "keys", text: "The key was revoked: requests with it are refused from now on." },
  moved: { section: "leads", text: "The lead was moved on." },
  invited: { section: "owners", text: "They are now a co-owner of the listing; we mailed them." },
  removed: { section: "owners", text: "The co-owner was removed." },
  granted: { section: "owners", text: "The agency has access to the listing now." },
  withdrawn: { section: "owners", text: "The agency's access was withdrawn, and the keys its members took for this listing revoked." },
  rechecked: { section: "engines", text: "The recheck is queued: each engine is asked shortly, and its answer shows here once it has answered." },
};

/** A refusal the page answers itself (with the page, its status and why); anything else is rethrown for the door. */
function expectedRefusal(error: unknown): { status: number; message: string } {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body } = toPublicError(error);
  if (status !== 400 && status !== 404 && status !== 409) throw error;
  return { status, message: body.error };
}

/** Reads everything the page shows (uncounted: after the request's counted call). A stranger's or an unknown slug's overview throws 403 or 404. */
async function readDashboard(extras: Caller, me: Me, slug: string): Promise<DashboardData> {
  const overview = await extras.owner.overview({ slug });
  const current = overview.business.slug;
  let profile: DashboardData["profile"] = null;
  let profileError: string | null = null;
  try {
    profile = await extras.entities.getEntityProfile({ slug: current });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    profileError = toPublicError(error).body.error;
  }
  const owner = overview.role === "owner";
  return {
    me,
    overview,
    profile,
    profileError,
    visibility: await extras.owner.visibility({ slug: current }),
    citations: await extras.owner.citations({ slug: current, limit: 100 }),
    corrections: await extras.owner.corrections({ slug: current, limit: 50 }),
    leads: await extras.owner.leads.list({ slug: current, limit: 100 }),
    keys: await extras.owner.keys.list({ slug: current }),
    webhooks: await extras.owner.webhooks.list({ slug: current }),
    owners: owner ? await extras.owner.coOwners.list({ slug: current }) : null,
    agencies: owner ? await extras.owner.agencies.list({ slug: current }) : null,
  };
}

async function sendDashboard(res: Response, extras: Caller, slug: string, status: number, view: DashboardExtras = {}, me?: Me): Promise<void> {
  const data = await readDashboard(extras, me ?? (await extras.account.me()), slug);
  sendPrivatePage(res, status, `${data.overview.business.name}: dashboard`, dashboardMain(data, view));
}

/** GET: the dashboard; signed out, the sign-in page first. */
export async function ownerDashboardPage(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  if (!me) return seeOther(res, "/sign-in");
  const done = typeof req.query.done === "string" ? NOTICES[req.query.done] : undefined;
  await sendDashboard(res, extras, slugOf(req), 200, done ? { notice: done } : {}, me);
}

/** POST .../listing: owner.updateListing with the fields the person changed; refused, the form again with what was typed. */
export async function saveListing(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  const profile = await caller.entities.getEntityProfile({ slug });
  const submitted = Object.fromEntries(EDITABLE_FIELDS.map((field) => [field.name, formField(req, field.name)]));
  const changes = changedFields(submitted, currentValues(profile));
  if (Object.keys(changes).length === 0) {
    // Nothing to write; the overview still says whether this person may (401, 403, 404 as for a change).
    await caller.owner.overview({ slug });
    return seeOther(res, `${dashboardPath(slug)}?done=unchanged#facts`);
  }
  try {
    await caller.owner.updateListing({ slug, ...changes });
  } catch (error) {
    const refusal = expectedRefusal(error);
    const values = { ...currentValues(profile), ...Object.fromEntries(Object.entries(submitted).filter(([, value]) => value !== undefined)) };
    return sendDashboard(res, extras, slug, refusal.status, { facts: { values: values as Record<string, string>, error: refusal.message } });
  }
  seeOther(res, `${dashboardPath(slug)}?done=saved#facts`);
}

/** POST .../keys: owner.keys.create; its answer is the one page that ever shows the key. */
export async function createBusinessKey(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  const label = formField(req, "label") ?? "";
  try {
    const created = await caller.owner.keys.create({ slug, label });
    await sendDashboard(res, extras, slug, 200, { keys: { newKey: created.key } });
  } catch (error) {
    const refusal = expectedRefusal(error);
    await sendDashboard(res, extras, slug, refusal.status, { keys: { error: `The key was not created: ${refusal.message}`, label: label.slice(0, 100) } });
  }
}

/** A change whose answer is the page again: the redirect with its notice, or the page with the refusal in `section`. */
function change(section: DashboardSection, done: string, act: (caller: Caller, slug: string, req: Request) => Promise<unknown>): AccountHandler {
  return async (req, res, { caller, extras }) => {
    const slug = slugOf(req);
    try {
      await act(caller, slug, req);
    } catch (error) {
      const refusal = expectedRefusal(error);
      return sendDashboard(res, extras, slug, refusal.status, { notice: { section, text: refusal.message, error: true } });
    }
    seeOther(res, `${dashboardPath(slug)}?done=${done}#${section}`);
  };
}

export const revokeBusinessKey = change("keys", "revoked", (caller, slug, req) => caller.owner.keys.revoke({ slug, id: formField(req, "id") ?? "" }));

export const moveLead = change("leads", "moved", (caller, slug, req) =>
  caller.leads.transition({
    slug,
    leadId: formField(req, "leadId") ?? "",
    // The procedure's input check refuses a status that is none of them (400).
    status: (formField(req, "status") ?? "") as Parameters<Caller["leads"]["transition"]>[0]["status"],
  }),
);

export const withdrawAgency = change("owners", "withdrawn", (caller, slug, req) =>
  caller.owner.agencies.withdraw({ slug, agencySlug: formField(req, "agencySlug") ?? "" }),
);

/**
 * POST .../citations/recheck: owner.requestCitationRecheck. Refused because the business asked
 * today (429) or no engine is configured (409), the page again saying why in its section.
 */
export async function requestRecheck(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  try {
    await caller.owner.requestCitationRecheck({ slug });
  } catch (error) {
    const { status, message } =
      error instanceof TRPCError && toPublicError(error).status === 429 ? { status: 429, message: toPublicError(error).body.error } : expectedRefusal(error);
    return sendDashboard(res, extras, slug, status, { notice: { section: "engines", text: `No recheck was queued: ${message}`, error: true } });
  }
  seeOther(res, `${dashboardPath(slug)}?done=rechecked#engines`);
}

/** POST .../co-owners/remove; removing oneself leaves the listing, so the answer is the person's own dashboard. */
export async function removeCoOwner(req: Request, res: Response, callers: AccountCallers): Promise<void> {
  const email = formField(req, "email") ?? "";
  const me = await signedInPerson(callers.extras);
  if (email.trim().toLowerCase() === me?.email.toLowerCase()) {
    const slug = slugOf(req);
    try {
      await callers.caller.owner.coOwners.remove({ slug, email });
    } catch (error) {
      const refusal = expectedRefusal(error);
      return sendDashboard(res, callers.extras, slug, refusal.status, { notice: { section: "owners", text: refusal.message, error: true } });
    }
    return seeOther(res, "/dashboard#businesses");
  }
  return change("owners", "removed", (caller, slug) => caller.owner.coOwners.remove({ slug, email }))(req, res, callers);
}

/** POST .../co-owners: owner.coOwners.invite; a refused address comes back in the form, with why. */
export async function inviteCoOwner(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  const email = formField(req, "email") ?? "";
  try {
    await caller.owner.coOwners.invite({ slug, email });
  } catch (error) {
    const refusal = expectedRefusal(error);
    return sendDashboard(res, extras, slug, refusal.status, {
      owners: { inviteError: `Nobody was invited: ${refusal.message}`, inviteEmail: email.slice(0, 254) },
    });
  }
  seeOther(res, `${dashboardPath(slug)}?done=invited#owners`);
}

/** POST .../agencies: owner.agencies.grant; an unknown agency comes back in the form, with why. */
export async function grantAgency(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  const agencySlug = formField(req, "agencySlug") ?? "";
  try {
    await caller.owner.agencies.grant({ slug, agencySlug });
  } catch (error) {
    const refusal = expectedRefusal(error);
    return sendDashboard(res, extras, slug, refusal.status, {
      owners: { grantError: `No access was granted: ${refusal.message}`, agencySlug: agencySlug.slice(0, 80) },
    });
  }
  seeOther(res, `${dashboardPath(slug)}?done=granted#owners`);
}

/** The forms are urlencoded, parsed only on their own routes (as the account door's are). */
const forms = express.urlencoded({ extended: false, limit: "20kb" });

/** Mounted by the account door (account-door.ts), which hands each handler its callers. */
export function mountOwnerDashboardPages(app: Express, door: (handler: AccountHandler) => RequestHandler): void {
  const base = "/dashboard/business/:slug";
  app.get(base, pageSecurityHeaders, door(ownerDashboardPage));
  app.post(`${base}/listing`, pageSecurityHeaders, forms, door(saveListing));
  app.post(`${base}/keys`, pageSecurityHeaders, forms, door(createBusinessKey));
  app.post(`${base}/keys/revoke`, pageSecurityHeaders, forms, door(revokeBusinessKey));
  app.post(`${base}/leads`, pageSecurityHeaders, forms, door(moveLead));
  app.post(`${base}/co-owners`, pageSecurityHeaders, forms, door(inviteCoOwner));
  app.post(`${base}/co-owners/remove`, pageSecurityHeaders, forms, door(removeCoOwner));
  app.post(`${base}/agencies`, pageSecurityHeaders, forms, door(grantAgency));
  app.post(`${base}/agencies/withdraw`, pageSecurityHeaders, forms, door(withdrawAgency));
  app.post(`${base}/citations/recheck`, pageSecurityHeaders, forms, door(requestRecheck));
}
