import { escapeHtml } from "../html";
import { csrfField, timeText, type Me } from "./account-parts";
import type { Caller } from "./errors";

/**
 * The HTML of the claim pages (claim.ts has their handlers). Each answer page of a proof holds
 * exactly one button named Verify; the claim page itself names its buttons for what they verify,
 * since a person may have a website token and a code waiting at once.
 */

export type ClaimStatus = Awaited<ReturnType<Caller["ownership"]["claimStatus"]>>;
export type WebsiteToken = Awaited<ReturnType<Caller["ownership"]["startWebsiteClaim"]>>;
export type SentCode = Awaited<ReturnType<Caller["ownership"]["sendEmailCode"]>>;
export type ReviewRequest = Awaited<ReturnType<Caller["ownership"]["requestReview"]>>;

/** The claim page of a listing, or one of its steps ("/website", "/email/verify", ...). */
export function claimPath(slug: string, step = ""): string {
  return `/business/${encodeURIComponent(slug)}/claim${step}`;
}

/** One of the person's agencies a claim may be made for. */
export interface AgencyChoice {
  slug: string;
  name: string;
}

/** The hidden field that makes a claim one for an agency (none: for the person). */
function claimForField(claimFor: AgencyChoice | undefined): string {
  return claimFor ? `<input type="hidden" name="agencySlug" value="${escapeHtml(claimFor.slug)}">` : "";
}

function postButton(me: Me, action: string, label: string, className = "", hidden = ""): string {
  const cls = className ? ` class="${className}"` : "";
  return `<form class="inline-form" method="post" action="${escapeHtml(action)}">${csrfField(me)}${hidden}<button type="submit"${cls}>${escapeHtml(label)}</button></form>`;
}

const pendingOf = (status: ClaimStatus, method: "website" | "email" | "review") => status.pending.find((claim) => claim.method === method);

const backLinks = (status: ClaimStatus) =>
  `<ul class="inline"><li><a href="${claimPath(status.business.slug)}">All the ways to claim ${escapeHtml(status.business.name)}</a></li>` +
  `<li><a href="/business/${encodeURIComponent(status.business.slug)}">The listing</a></li><li><a href="/dashboard">Your dashboard</a></li></ul>`;

/** The Code field and its button; `error` is shown above it and described by the field. */
export function codeForm(status: ClaimStatus, me: Me, button: string, error?: string): string {
  const message = error ? `<p id="claim-code-error" class="notice error">${escapeHtml(error)}</p>` : "";
  return `${message}<form class="stack" method="post" action="${claimPath(status.business.slug, "/email/verify")}">${csrfField(me)}
<div><label for="claim-code">Code</label><input id="claim-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required aria-describedby="claim-code-help${error ? " claim-code-error" : ""}"${error ? ' aria-invalid="true"' : ""}>
<span id="claim-code-help" class="hint">The 6 digits in the mail.</span></div>
<button type="submit">${escapeHtml(button)}</button></form>`;
}

function websiteSection(status: ClaimStatus, me: Me, claimFor?: AgencyChoice): string {
  const pending = pendingOf(status, "website");
  const waiting = pending
    ? `<p>A token you got is waiting, valid until ${timeText(pending.expiresAt)}. Once it is on the site, have it checked:</p>
${postButton(me, claimPath(status.business.slug, "/website/verify"), "Verify the website token")}
<p>Lost it? A new token replaces it (the old one then stops working).</p>`
    : "";
  return `<section aria-labelledby="by-website"><h2 id="by-website">By its website</h2>
<p>The listing's website is <strong class="agent">${escapeHtml(status.website)}</strong>. Get a token, put it on the site's home page (as a meta tag) or in a file, and we look for it there: it proves you run the site.</p>
${waiting}${postButton(me, claimPath(status.business.slug, "/website"), pending ? "Get a new website token" : "Get a website token", pending ? "secondary" : "", claimForField(claimFor))}</section>`;
}

function emailSection(status: ClaimStatus, me: Me, claimFor?: AgencyChoice): string {
  const pending = pendingOf(status, "email");
  const waiting = pending
    ? `<p>A code was mailed for you, valid until ${timeText(pending.expiresAt)}${pending.attemptsLeft === null ? "" : ` (${escapeHtml(pending.attemptsLeft)} tries left)`}.</p>
${codeForm(status, me, "Verify the code")}<p>No mail? Check the spam folder, or send a new code (the one before then stops working).</p>`
    : "";
  return `<section aria-labelledby="by-email"><h2 id="by-email">By its email address</h2>
<p>We mail a 6-digit code to the address the listing gives; whoever reads that mailbox can enter it here. A code works for 30 minutes and 5 tries.</p>
${waiting}${postButton(me, claimPath(status.business.slug, "/email"), "Send code", pending ? "secondary" : "", claimForField(claimFor))}</section>`;
}

export interface ReviewDraft {
  evidence: string;
  error?: string;
}

function reviewSection(status: ClaimStatus, me: Me, draft?: ReviewDraft, claimFor?: AgencyChoice): string {
  const waiting = pendingOf(status, "review")
    ? `<p class="notice">Your request for a review is waiting for an operator. Sending another replaces what it says.</p>`
    : "";
  const error = draft?.error ? `<p id="claim-evidence-error" class="notice error">${escapeHtml(draft.error)}</p>` : "";
  const why = status.openToSelfProof
    ? "No access to the website or the mailbox? Tell an operator why the listing is yours; they check it and decide."
    : "Tell an operator why the listing is yours; they check it with the current owner and decide.";
  return `<section aria-labelledby="by-review"><h2 id="by-review">By a review</h2><p>${why}</p>${waiting}${error}
<form class="stack" method="post" action="${claimPath(status.business.slug, "/review")}">${csrfField(me)}${claimForField(claimFor)}
<div><label for="claim-evidence">Why the listing is yours</label><textarea id="claim-evidence" name="evidence" rows="5" maxlength="2000" required aria-describedby="claim-evidence-help${draft?.error ? " claim-evidence-error" : ""}"${draft?.error ? ' aria-invalid="true"' : ""}>${escapeHtml(draft?.evidence)}</textarea>
<span id="claim-evidence-help" class="hint">Your role in the business and how an operator can check it (a phone number on the listing they can call, a registration number). Up to 2,000 characters.</span></div>
<button type="submit">Ask for a review</button></form></section>`;
}

export interface ClaimPageOptions {
  /** A refusal or a piece of news to show at the top. */
  notice?: { text: string; error: boolean };
  review?: ReviewDraft;
  /** The person's agencies: with any, the page offers to claim for one of them. */
  agencies?: AgencyChoice[];
  /** The agency chosen: the start forms then claim for it. */
  claimFor?: AgencyChoice;
}

/** "Claim for": yourself, or one of your agencies (a GET form: the page again, its start forms then claiming for the choice). */
function claimForChooser(status: ClaimStatus, options: ClaimPageOptions): string {
  const agencies = options.agencies ?? [];
  if (agencies.length === 0) return "";
  const chosen = options.claimFor;
  const choices = agencies
    .map(
      (agency) =>
        `<option value="${escapeHtml(agency.slug)}"${agency.slug === chosen?.slug ? " selected" : ""}>${escapeHtml(agency.name)} (your agency)</option>`,
    )
    .join("");
  const now = chosen
    ? `You are claiming for <strong>${escapeHtml(chosen.name)}</strong>: once proven, you become the owner and the agency gets access to the listing.`
    : "You are claiming for yourself.";
  return `<form class="stack" method="get" action="${claimPath(status.business.slug)}">
<div><label for="claim-for">Claim for</label><select id="claim-for" name="for" aria-describedby="claim-for-help"><option value="">Yourself</option>${choices}</select>
<span id="claim-for-help" class="hint">${now}</span></div>
<button type="submit" class="secondary">Choose</button></form>`;
}

/** The claim page: the ways open to this person for this listing. */
export function claimMain(status: ClaimStatus, me: Me, options: ClaimPageOptions = {}): string {
  const name = escapeHtml(status.business.name);
  const notice = options.notice
    ? `<p class="notice${options.notice.error ? " error" : ""}"${options.notice.error ? "" : ' role="status"'}>${escapeHtml(options.notice.text)}</p>`
    : "";
  const heading = `<h1>Claim ${name}</h1>${notice}`;
  if (status.isOwner) {
    return `${heading}<p class="notice" role="status">You own this listing. It is on <a href="/dashboard">your dashboard</a>.</p>
<p><a href="/business/${encodeURIComponent(status.business.slug)}">See the listing</a></p>`;
  }
  const ways = status.openToSelfProof
    ? `<p>Prove that ${name} is yours to manage its listing. Choose one way.</p>${status.website ? websiteSection(status, me, options.claimFor) : ""}${status.hasEmail ? emailSection(status, me, options.claimFor) : ""}`
    : `<p>${name} already has an owner. If it is yours as well, an operator can review your request.</p>`;
  return `${heading}${claimForChooser(status, options)}${ways}${reviewSection(status, me, options.review, options.claimFor)}
<p><a href="/business/${encodeURIComponent(status.business.slug)}">Back to the listing</a></p>`;
}

/** The answer to "Get a website token": the one page that ever shows the token. */
export function tokenMain(status: ClaimStatus, me: Me, token: WebsiteToken): string {
  return `<h1>Your website token for ${escapeHtml(status.business.name)}</h1>
<section class="new-key" aria-labelledby="token-heading"><h2 id="token-heading">Your token</h2>
<p><strong>Copy it now: it is shown this once.</strong> Only its hash is kept; if you lose it, get a new one.</p>
<p><code id="website-token">${escapeHtml(token.token)}</code></p></section>
<h2 id="where">Put it on the website</h2>
<p>Either put this tag in the <code>&lt;head&gt;</code> of the home page, <strong class="agent">${escapeHtml(token.homePage)}</strong>:</p>
<pre><code id="meta-tag">${escapeHtml(token.metaTag)}</code></pre>
<p>Or put the token alone (nothing else) in a plain text file at <strong class="agent">${escapeHtml(token.fileUrl)}</strong>.</p>
<p>The token works until ${timeText(token.expiresAt)}. Once it is in place, press Verify: we fetch the home page, then the file, and look for it.</p>
${postButton(me, claimPath(status.business.slug, "/website/verify"), "Verify")}
${backLinks(status)}`;
}

/** The answer to a website check that did not find the token (or could not look): why, Verify again, or a new token (for whom the waiting one was). */
export function tokenNotFoundMain(status: ClaimStatus, me: Me, heading: string, message: string, claimFor?: AgencyChoice): string {
  return `<h1>${escapeHtml(heading)}</h1>
<p class="notice error">${escapeHtml(message)}</p>
<p>Put the token in place, then verify again. It is kept only as a hash, so it cannot be shown again: if you no longer have it, get a new one (the old one then stops working).</p>
${postButton(me, claimPath(status.business.slug, "/website/verify"), "Verify")}
${postButton(me, claimPath(status.business.slug, "/website"), "Get a new website token", "secondary", claimForField(claimFor))}
${backLinks(status)}`;
}

/** The answer to "Send code", and to a wrong code: the Code field and one Verify button; a new code is for whom the claim is. */
export function codeMain(status: ClaimStatus, me: Me, answer: ({ sent: SentCode } | { error: string }) & { claimFor?: AgencyChoice }): string {
  const news =
    "sent" in answer
      ? `<p class="notice" role="status">We mailed a 6-digit code to <strong>${escapeHtml(answer.sent.sentTo)}</strong>, the listing's address. It works until ${timeText(answer.sent.expiresAt)}, for 5 tries.${answer.claimFor ? ` You are claiming for <strong>${escapeHtml(answer.claimFor.name)}</strong>.` : ""}</p>`
      : "";
  return `<h1>Enter the code for ${escapeHtml(status.business.name)}</h1>${news}
${codeForm(status, me, "Verify", "error" in answer ? answer.error : undefined)}
<p>No mail after a few minutes? Check the spam folder, or send a new code (the one before then stops working).</p>
${postButton(me, claimPath(status.business.slug, "/email"), "Send code", "secondary", claimForField(answer.claimFor))}
${backLinks(status)}`;
}

/** The answer to "Ask for a review". */
export function reviewMain(status: ClaimStatus, review: ReviewRequest): string {
  const replaced = review.created ? "" : " It replaces what your earlier request said.";
  return `<h1>Review requested</h1>
<p class="notice" role="status">An operator will review your request to own ${escapeHtml(status.business.name)}.${replaced}</p>
<p>They decide from what you wrote, and may contact the business to check it. When they approve it, the listing appears on your dashboard.</p>
${backLinks(status)}`;
}
