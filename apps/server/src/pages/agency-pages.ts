import type { Express, Request, RequestHandler, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError, type Context } from "@directory/api";
import { formField, sendPrivatePage, signedInPerson, type AccountCallers, type AccountHandler } from "./account-parts";
import { agencyMain, agencyPath, type AgencyView } from "./agency-views";
import { allowCheckoutRedirect, PLAN_PRICE } from "./developers";
import type { Caller } from "./errors";
import { pageSecurityHeaders } from "./layout";

/**
 * /dashboard/agency/{agencySlug} and its forms, and creating an agency from /dashboard. The agency
 * procedures decide everything (session, Origin, CSRF token, membership: 404 for a stranger, 403
 * for a member on an owner's action); these handlers turn their answers into pages and redirects.
 */

const agencySlugOf = (req: Request): string => (typeof req.params.agencySlug === "string" ? req.params.agencySlug : "");

/** The status of a procedure's refusal when it is one of `expected`; anything else is rethrown for the door's error page. */
function expectedRefusal(error: unknown, expected: number[]): { status: number; message: string } {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body } = toPublicError(error);
  if (!expected.includes(status)) throw error;
  return { status, message: body.error };
}

function seeOther(res: Response, path: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, path);
}

const NOTICES: Record<string, string> = {
  invited: "The person was added and mailed a link to this page.",
  removed: "The member was removed: they no longer see this agency.",
  revoked: "The key was revoked: requests with it are refused from now on.",
  done: "Thank you: the agency's plan starts as soon as the payment is confirmed.",
  cancelled: "The payment was cancelled; nothing was charged.",
};

function noticeOf(req: Request): string | undefined {
  const flag = ["invited", "removed", "revoked"].find((name) => typeof req.query[name] === "string") ?? req.query.checkout;
  return typeof flag === "string" ? NOTICES[flag] : undefined;
}

/** The agency page as things are now (uncounted reads after the request's one counted call), with `extras` such as a new key or a form's error. */
async function sendAgencyPage(
  res: Response,
  { extras, context }: { extras: Caller; context: Context },
  agencySlug: string,
  status: number,
  view: Partial<AgencyView> = {},
): Promise<void> {
  const me = view.me ?? (await extras.account.me());
  const overview = view.overview ?? (await extras.agency.overview({ agencySlug }));
  const owner = overview.agency.role === "owner";
  const keys = owner ? await extras.agency.keys.list({ agencySlug }) : null;
  if (owner) allowCheckoutRedirect(res, context);
  const offer = { price: context.paymentProvider ? PLAN_PRICE : null };
  sendPrivatePage(res, status, overview.agency.name, agencyMain({ ...view, me, overview, keys, offer }));
}

/** GET: the agency's businesses, members and (for its owners) keys and plan; signed out, the sign-in page first. */
export async function agencyPage(req: Request, res: Response, { caller, extras, context }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  if (!me) return seeOther(res, "/sign-in");
  await sendAgencyPage(res, { extras, context }, agencySlugOf(req), 200, { me, notice: noticeOf(req) });
}

/** POST /dashboard/agencies: agency.create, then the new agency's page. */
export async function createAgencyForm(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const agency = await caller.agency.create({ name: formField(req, "name") ?? "" });
  seeOther(res, agencyPath(agency.slug));
}

/** POST: agency.members.invite; a refused address comes back in the form, with why. */
export async function inviteMemberForm(req: Request, res: Response, callers: AccountCallers): Promise<void> {
  const agencySlug = agencySlugOf(req);
  const email = formField(req, "email") ?? "";
  try {
    await callers.caller.agency.members.invite({ agencySlug, email, role: formField(req, "role") as "owner" | "member" });
  } catch (error) {
    const refusal = expectedRefusal(error, [400, 409]);
    const inviteError = { message: `Nobody was invited: ${refusal.message}`, value: email.slice(0, 254) };
    return sendAgencyPage(res, callers, agencySlug, refusal.status, { inviteError });
  }
  seeOther(res, `${agencyPath(agencySlug)}?invited=1#agency-members`);
}

/** POST: agency.members.remove; the last owner stays (409, said on the page). */
export async function removeMemberForm(req: Request, res: Response, callers: AccountCallers): Promise<void> {
  const agencySlug = agencySlugOf(req);
  try {
    await callers.caller.agency.members.remove({ agencySlug, email: formField(req, "email") ?? "" });
  } catch (error) {
    const refusal = expectedRefusal(error, [409]);
    return sendAgencyPage(res, callers, agencySlug, refusal.status, { notice: refusal.message });
  }
  seeOther(res, `${agencyPath(agencySlug)}?removed=1#agency-members`);
}

/** POST: agency.keys.create; its answer is the one page that ever shows the key. */
export async function createAgencyKey(req: Request, res: Response, callers: AccountCallers): Promise<void> {
  const agencySlug = agencySlugOf(req);
  const label = formField(req, "label") ?? "";
  let created: { key: string };
  try {
    created = await callers.caller.agency.keys.create({ agencySlug, label });
  } catch (error) {
    const refusal = expectedRefusal(error, [400]);
    return sendAgencyPage(res, callers, agencySlug, 400, { keyError: { message: `The key was not created: ${refusal.message}`, value: label.slice(0, 100) } });
  }
  await sendAgencyPage(res, callers, agencySlug, 200, { newKey: created.key });
}

/** POST: agency.keys.revoke, then the page again (so a reload does not post twice). */
export async function revokeAgencyKey(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const agencySlug = agencySlugOf(req);
  await caller.agency.keys.revoke({ agencySlug, id: formField(req, "id") ?? "" });
  seeOther(res, `${agencyPath(agencySlug)}?revoked=1#agency-keys`);
}

/** POST: agency.plan.checkout, then the provider's hosted checkout page. */
export async function buyAgencyPlan(req: Request, res: Response, { caller }: AccountCallers): Promise<void> {
  const { url } = await caller.agency.plan.checkout({ agencySlug: agencySlugOf(req) });
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, url);
}

/** The agency routes, behind the account pages' door (account-door.ts) and its form parser. */
export function mountAgencyPages(app: Express, door: (handler: AccountHandler) => RequestHandler, forms: RequestHandler): void {
  app.post("/dashboard/agencies", pageSecurityHeaders, forms, door(createAgencyForm));
  app.get("/dashboard/agency/:agencySlug", pageSecurityHeaders, door(agencyPage));
  app.post("/dashboard/agency/:agencySlug/members", pageSecurityHeaders, forms, door(inviteMemberForm));
  app.post("/dashboard/agency/:agencySlug/members/remove", pageSecurityHeaders, forms, door(removeMemberForm));
  app.post("/dashboard/agency/:agencySlug/keys", pageSecurityHeaders, forms, door(createAgencyKey));
  app.post("/dashboard/agency/:agencySlug/keys/revoke", pageSecurityHeaders, forms, door(revokeAgencyKey));
  app.post("/dashboard/agency/:agencySlug/plan", pageSecurityHeaders, forms, door(buyAgencyPlan));
}
