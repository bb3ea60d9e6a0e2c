import type { Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { toPublicError } from "@directory/api";
import { formField, sendPrivatePage, signedInPerson, type AccountCallers } from "./account-parts";
import { claimMain, codeMain, reviewMain, tokenMain, tokenNotFoundMain, type AgencyChoice, type ClaimPageOptions, type ClaimStatus } from "./claim-views";
import type { Caller } from "./errors";

/**
 * /business/{slug}/claim: a signed-in person proves a listing is theirs, by its website (a token
 * on the site), its email (a mailed code) or an operator's review. The ownership procedures decide
 * everything (session, Origin, CSRF token, who may claim what, the limits); these handlers turn
 * their answers and expected refusals into pages. Any other refusal reaches the door's error page.
 */

const slugOf = (req: Request): string => (typeof req.params.slug === "string" ? req.params.slug : "");
/** The agency a start form claims for (its hidden field; empty or absent: the person); the procedure checks membership. */
const agencySlugOf = (req: Request): string | undefined => formField(req, "agencySlug") || undefined;

/** The HTTP status of a procedure's refusal; anything but a tRPC error is rethrown. */
function refusalOf(error: unknown): { status: number; message: string; error: TRPCError } {
  if (!(error instanceof TRPCError)) throw error;
  const { status, body } = toPublicError(error);
  return { status, message: body.error, error };
}

/** The person and the listing's claim status, read after the counted call (uncounted, as the account pages' further reads are). */
async function readView(extras: Caller, slug: string) {
  return { me: await extras.account.me(), status: await extras.ownership.claimStatus({ slug }) };
}

/** The person's agencies for "Claim for", and the one chosen if it is one of them (any other: the person). */
async function agencyChoices(extras: Caller, chosen: unknown): Promise<{ agencies: AgencyChoice[]; claimFor?: AgencyChoice }> {
  const agencies = (await extras.account.agencies.list()).map(({ slug, name }) => ({ slug, name }));
  return { agencies, claimFor: agencies.find((agency) => agency.slug === chosen) };
}

/**
 * Whom the person's waiting claim of this method is for (an agency they still belong to), so that
 * a new token or code after a failed check is asked for the same agency, not silently for the person.
 */
async function pendingClaimFor(extras: Caller, status: ClaimStatus, method: "website" | "email"): Promise<AgencyChoice | undefined> {
  const agencySlug = status.pending.find((claim) => claim.method === method)?.agencySlug;
  return agencySlug ? (await agencyChoices(extras, agencySlug)).claimFor : undefined;
}

async function sendClaimPage(req: Request, res: Response, extras: Caller, httpStatus: number, options: ClaimPageOptions = {}): Promise<void> {
  const { me, status } = await readView(extras, slugOf(req));
  const choices = await agencyChoices(extras, agencySlugOf(req));
  sendPrivatePage(res, httpStatus, `Claim ${status.business.name}`, claimMain(status, me, { ...choices, ...options }));
}

/**
 * A proof refused because the listing's state changed (an owner appeared, the website or email is
 * gone, the token or code is spent): the claim page again, as things are now, saying why. Other
 * refusals are rethrown for the door's error page.
 */
async function answerConflict(req: Request, res: Response, extras: Caller, error: unknown): Promise<void> {
  const refusal = refusalOf(error);
  if (refusal.status !== 409) throw refusal.error;
  await sendClaimPage(req, res, extras, 409, { notice: { text: refusal.message, error: true } });
}

function seeOther(res: Response, path: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, path);
}

/** GET: the ways this person may claim this listing, for themselves or (?for=) one of their agencies; signed out: the sign-in page first. */
export async function claimPage(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const me = await signedInPerson(caller);
  if (!me) return seeOther(res, "/sign-in");
  const status = await extras.ownership.claimStatus({ slug: slugOf(req) });
  sendPrivatePage(res, 200, `Claim ${status.business.name}`, claimMain(status, me, await agencyChoices(extras, req.query.for)));
}

/** POST: a website token, shown on its answer page and never again. */
export async function startWebsiteClaim(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  let token: Awaited<ReturnType<Caller["ownership"]["startWebsiteClaim"]>>;
  try {
    token = await caller.ownership.startWebsiteClaim({ slug, agencySlug: agencySlugOf(req) });
  } catch (error) {
    return answerConflict(req, res, extras, error);
  }
  const { me, status } = await readView(extras, slug);
  sendPrivatePage(res, 200, "Your website token", tokenMain(status, me, token));
}

/**
 * POST: the website is checked for the token. Found: the person owns the listing, on to the
 * dashboard. Not found (409, saying where it looked) or the site refused as not public (403):
 * Verify again, or a new token, while the token still waits; otherwise the claim page says why.
 */
export async function verifyWebsiteClaim(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  try {
    await caller.ownership.checkWebsiteClaim({ slug });
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal.status !== 409 && refusal.status !== 403) throw refusal.error;
    const { me, status } = await readView(extras, slug);
    const waiting = status.openToSelfProof && status.pending.some((claim) => claim.method === "website");
    if (!waiting)
      return sendPrivatePage(res, refusal.status, `Claim ${status.business.name}`, claimMain(status, me, { notice: { text: refusal.message, error: true } }));
    // 403 is the site refused as not public, or this form's CSRF token or Origin: either way the site was not looked at.
    const heading = refusal.status === 409 ? "The token was not found" : "The website was not checked";
    const claimFor = await pendingClaimFor(extras, status, "website");
    return sendPrivatePage(res, refusal.status, heading, tokenNotFoundMain(status, me, heading, refusal.message, claimFor));
  }
  seeOther(res, "/dashboard");
}

/** POST: a code mailed to the listing's address; the answer says where (masked) and asks for it. */
export async function sendEmailCode(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  let sent: Awaited<ReturnType<Caller["ownership"]["sendEmailCode"]>>;
  try {
    sent = await caller.ownership.sendEmailCode({ slug, agencySlug: agencySlugOf(req) });
  } catch (error) {
    return answerConflict(req, res, extras, error);
  }
  const { me, status } = await readView(extras, slug);
  const { claimFor } = await agencyChoices(extras, agencySlugOf(req));
  sendPrivatePage(res, 200, "Enter the code", codeMain(status, me, { sent, claimFor }));
}

/** POST: the code. Right: on to the dashboard. Wrong or malformed (400): the form again, with the tries left. Spent (409): the claim page, to send another. */
export async function verifyEmailCode(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  try {
    await caller.ownership.verifyEmailCode({ slug, code: formField(req, "code") ?? "" });
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal.status !== 400) return answerConflict(req, res, extras, error);
    const { me, status } = await readView(extras, slug);
    return sendPrivatePage(
      res,
      400,
      "Enter the code",
      codeMain(status, me, { error: refusal.message, claimFor: await pendingClaimFor(extras, status, "email") }),
    );
  }
  seeOther(res, "/dashboard");
}

/** POST: a request for an operator's review; a refused text comes back in the form, with why. */
export async function requestReview(req: Request, res: Response, { caller, extras }: AccountCallers): Promise<void> {
  const slug = slugOf(req);
  const evidence = formField(req, "evidence") ?? "";
  let review: Awaited<ReturnType<Caller["ownership"]["requestReview"]>>;
  try {
    review = await caller.ownership.requestReview({ slug, evidence, agencySlug: agencySlugOf(req) });
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal.status !== 400) return answerConflict(req, res, extras, error);
    return sendClaimPage(req, res, extras, 400, { review: { evidence: evidence.slice(0, 2000), error: `Your request was not sent: ${refusal.message}` } });
  }
  const { status } = await readView(extras, slug);
  sendPrivatePage(res, 200, "Review requested", reviewMain(status, review));
}
