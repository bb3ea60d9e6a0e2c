import type { Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { OutboundPolicy, Resolver } from "../webhooks/outbound-address";
import { assertOpenToSelfProof, completeProof, expireClaim, latestClaim, replacePendingClaim } from "./claim-rows";
import { listingContact } from "./listing-contact";
import { fetchSiteDocument, type SiteFetchLimits, type SiteFetchResult } from "./site-fetch";
import {
  fileTokensIn,
  hashWebsiteToken,
  matchesStoredToken,
  metaTokensIn,
  newWebsiteToken,
  VERIFICATION_META_NAME,
  verificationMetaTag,
  WELL_KNOWN_PATH,
} from "./website-token";

/*
 * Proving a listing by its website: the person is given a token, puts it on the listing's website
 * (a meta tag on the home page, or the well-known file), and the service fetches the site under the
 * outbound rules (site-fetch.ts) to find it. Finding it makes them the owner; not finding it
 * leaves the claim as it was, to check again once the token is in place.
 */

/** How long a website token may be put in place and checked. */
export const WEBSITE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface StartedWebsiteClaim {
  token: string;
  expiresAt: Date;
  /** The page the meta tag goes on (the listing's website) and the tag itself. */
  homePage: string;
  metaTag: string;
  /** Where the token alone may go instead. */
  fileUrl: string;
}

/** The listing's website as the URL its home page is fetched from (no fragment). */
function homePageOf(website: string | null): URL {
  if (!website) throw new DomainError("CONFLICT", "This listing has no website: prove it by its email address, or ask for a review");
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    throw new DomainError("CONFLICT", "This listing's website is not a URL the service can fetch: prove it by email, or ask for a review");
  }
  url.hash = "";
  return url;
}

export async function startWebsiteClaim(
  db: Db,
  params: { businessId: string; accountId: string; agencyId?: string | null; now: Date },
): Promise<StartedWebsiteClaim> {
  await assertOpenToSelfProof(db, params.businessId);
  const home = homePageOf((await listingContact(db, params.businessId)).website);
  const token = newWebsiteToken();
  const expiresAt = new Date(params.now.getTime() + WEBSITE_TOKEN_TTL_MS);
  await replacePendingClaim(db, { ...params, method: "website", secretHash: hashWebsiteToken(token), expiresAt });
  return { token, expiresAt, homePage: home.href, metaTag: verificationMetaTag(token), fileUrl: new URL(WELL_KNOWN_PATH, home).href };
}

export interface CheckWebsiteClaimParams {
  businessId: string;
  accountId: string;
  policy: OutboundPolicy;
  now: Date;
  /** Tests: a fake DNS, and tighter fetch limits. */
  resolve?: Resolver;
  limits?: SiteFetchLimits;
}

/** What the person is told about one place the token was looked for. */
function whatWasFound(result: SiteFetchResult, found: readonly string[], none: string): string {
  if (!result.ok) return `${result.url} ${result.problem}`;
  if (found.length === 0) return `${result.url} ${none}`;
  return `${result.url} holds another token, not yours for this listing (another listing's, another person's, or an older one)`;
}

/**
 * Looks for the person's token on the listing's website: the meta tag on its home page, else the
 * well-known file. Found: in one transaction the claim is verified and the person becomes an owner.
 * Not found: CONFLICT saying where it looked and what it found; the claim stays to check again.
 */
export async function checkWebsiteClaim(db: Db, params: CheckWebsiteClaimParams): Promise<void> {
  const claim = await latestClaim(db, { ...params, method: "website" });
  if (claim?.status !== "pending" || !claim.secretHash) {
    throw new DomainError("CONFLICT", "No website claim of yours is waiting for this listing: start one to get a token");
  }
  if (!claim.expiresAt || claim.expiresAt <= params.now) {
    await expireClaim(db, claim.id, params.now);
    throw new DomainError("CONFLICT", "Your website token has expired (a token is valid 7 days): start again for a new one");
  }
  await assertOpenToSelfProof(db, params.businessId);
  const home = homePageOf((await listingContact(db, params.businessId)).website);
  const fetchOptions = { policy: params.policy, resolve: params.resolve, limits: params.limits };
  const complete = () =>
    completeProof(db, { claimId: claim.id, businessId: params.businessId, accountId: params.accountId, method: "website", now: params.now });

  const page = await fetchSiteDocument(home, fetchOptions);
  const metaTokens = page.ok ? metaTokensIn(page.body) : [];
  if (matchesStoredToken(metaTokens, claim.secretHash)) return complete();

  const file = await fetchSiteDocument(new URL(WELL_KNOWN_PATH, home), fetchOptions);
  const fileTokens = file.ok ? fileTokensIn(file.body) : [];
  if (matchesStoredToken(fileTokens, claim.secretHash)) return complete();

  throw new DomainError(
    "CONFLICT",
    `No matching token found on the listing's website. Looked for <meta name="${VERIFICATION_META_NAME}" content="…"> in the head of the home page: ` +
      `${whatWasFound(page, metaTokens, "has no such tag in its head")}. Looked for the token alone in the well-known file: ${whatWasFound(file, fileTokens, "is empty")}. ` +
      "Put your token in either place and check again; a new start gives a new token.",
  );
}
