import type { Request, Response } from "express";
import { TRPCError } from "@trpc/server";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { toPublicError } from "@directory/api";
import { escapeHtml } from "../html";
import type { Caller, PageCallers } from "./errors";
import { popularOrNothing, sendErrorPage } from "./errors";
import { claimsTable } from "./facts";
import { hoursSection } from "./hours";
import { attributionLines, browseHref, layout, listingItem, searchForms, tierBadge } from "./layout";

type Profile = Awaited<ReturnType<Caller["entities"]["getEntityProfile"]>>;
type Offers = Awaited<ReturnType<Caller["entities"]["getOffers"]>>;
type Questions = Awaited<ReturnType<Caller["entities"]["getBuyerQuestions"]>>;
type Hours = Awaited<ReturnType<Caller["pages"]["businessHours"]>>;

/** tel: wants E.164; phones are stored that way, and anything else gets no link. */
function telHref(phone: string): string | null {
  const parsed = parsePhoneNumberFromString(phone);
  return parsed?.isPossible() ? `tel:${parsed.number}` : null;
}

function displayPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}

/** Only http(s) websites become links. */
function websiteHref(website: string): string | null {
  try {
    const url = new URL(website);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function contactActions(contact: Profile["contact"]): string {
  const actions: string[] = [];
  const tel = contact.phone ? telHref(contact.phone) : null;
  if (contact.phone && tel) actions.push(`<li><a href="${escapeHtml(tel)}">Call ${escapeHtml(displayPhone(contact.phone))}</a></li>`);
  if (contact.email && EMAIL.test(contact.email)) actions.push(`<li><a href="mailto:${escapeHtml(contact.email)}">Email ${escapeHtml(contact.email)}</a></li>`);
  const site = contact.website ? websiteHref(contact.website) : null;
  if (site) actions.push(`<li><a href="${escapeHtml(site)}" rel="nofollow noopener">Website: ${escapeHtml(new URL(site).host)}</a></li>`);
  const plain = [
    contact.phone && !tel ? `Phone: ${escapeHtml(contact.phone)}` : "",
    contact.website && !site ? `Website: ${escapeHtml(contact.website)}` : "",
  ].filter(Boolean);
  return `<ul class="actions">${actions.join("") || "<li>No contact details known</li>"}</ul>${plain.length ? `<p>${plain.join("<br>")}</p>` : ""}`;
}

/** The street and postal code; without a street it says so, as the contact section does, rather than print an empty line. */
function locationLine(contact: Profile["contact"]): string {
  const postalCode = contact.postalCode ? escapeHtml(contact.postalCode) : "";
  if (!contact.address) return `No street address known${postalCode ? ` (postal code ${postalCode})` : ""}`;
  return `${escapeHtml(contact.address)}${postalCode ? ` ${postalCode}` : ""}`;
}

function offersSection(offers: Offers | null): string {
  if (!offers || offers.offers.length === 0) return "<p>No published offers.</p>";
  return `<ul>${offers.offers
    .map(
      (o) =>
        `<li><strong>${escapeHtml(o.title)}</strong>: ${escapeHtml(o.price)} ${escapeHtml(o.currency)}${o.description ? ` <span class="muted">${escapeHtml(o.description)}</span>` : ""}${o.validUntil ? ` <span class="muted">(until ${escapeHtml(o.validUntil.slice(0, 10))})</span>` : ""}</li>`,
    )
    .join("")}</ul>`;
}

function questionsSection(questions: Questions | null): string {
  if (!questions || questions.questions.length === 0) return "<p>No questions yet.</p>";
  return `<dl>${questions.questions
    .map(
      (q) =>
        `<dt>${escapeHtml(q.question)}</dt><dd>${q.answer ? escapeHtml(q.answer) : '<span class="muted">Not answered yet</span>'}${q.source === "owner" ? "" : ' <span class="muted">(asked of every business in this category)</span>'}</dd>`,
    )
    .join("")}</dl>`;
}

/** A closed (or unverified) business's page says so at the top, before anything a visitor might act on. */
function closureNotice(status: Profile["operatingStatus"]): string {
  if (status.status === "permanently_closed")
    return `<p class="closure" role="status"><strong>Permanently closed</strong> since ${escapeHtml(status.closedOn ?? "")}</p>`;
  if (status.status === "temporarily_closed") {
    return `<p class="closure" role="status"><strong>Temporarily closed</strong>${status.reopensOn ? `, reopening ${escapeHtml(status.reopensOn)}` : ""}</p>`;
  }
  if (status.status === "unverified") {
    return `<p class="closure" role="status"><strong>Unverified</strong> since ${escapeHtml(status.since?.slice(0, 10) ?? "")}: every fact below is past its useful life and no one has said the business is open. Check before you go.</p>`;
  }
  return "";
}

export function renderProfile(profile: Profile, offers: Offers | null, questions: Questions | null, hours: Hours | null): string {
  const { identity, contact, aiSignals } = profile;
  const cityParam = `${identity.city}, ${identity.country}`;
  const description = aiSignals.description ?? `${identity.category} in ${identity.city}`;
  const main = `<article>
<h1>${escapeHtml(identity.name)}</h1>
<p>${escapeHtml(identity.category)} in ${escapeHtml(identity.city)}, ${escapeHtml(identity.state)} · ${identity.verified ? "Owner-verified" : "Unclaimed, registry-sourced"} · ${tierBadge(identity.planTier)}</p>
${identity.verified ? "" : `<p><a class="button" href="/business/${encodeURIComponent(identity.slug)}/claim">Claim this business</a> <span class="hint">Is it yours? Prove it and manage the listing.</span></p>`}
${closureNotice(profile.operatingStatus)}${aiSignals.tagline ? `<p><em>${escapeHtml(aiSignals.tagline)}</em></p>` : ""}<p>${escapeHtml(aiSignals.description ?? "")}</p>
<h2 id="contact">Contact</h2>${contactActions(contact)}
<h2 id="location">Location</h2><p>${locationLine(contact)}</p>
<h2 id="hours">Opening hours</h2>${hoursSection(hours, contact, identity.city)}
<h2 id="services">Services</h2><p>${escapeHtml(profile.services.join(", ") || "Not known")}</p>
<h2 id="offers">Offers</h2>${offersSection(offers)}
<h2 id="questions">Questions and answers</h2>${questionsSection(questions)}
<h2 id="claims">Where these facts come from</h2>${claimsTable(profile.claims, identity)}${attributionLines(profile.attributions)}
<p class="muted">Directory completeness ${aiSignals.directoryCompletenessScore}/100: ${escapeHtml(aiSignals.directoryCompletenessScoreLabel)}</p>
<h2 id="more">More like this</h2><p><a href="${escapeHtml(browseHref(identity.categorySlug, cityParam))}">All ${escapeHtml(identity.category.toLowerCase())} listings in ${escapeHtml(identity.city)}</a></p>
<p class="muted">For agents: <a href="${escapeHtml(profile.links.agentProfileUrl)}">agent.json</a> · <a href="${escapeHtml(profile.links.canonicalUrl)}">canonical record</a></p>
</article>`;
  return layout(
    {
      title: `${identity.name}, ${identity.category} in ${identity.city}`,
      description: description.slice(0, 300),
      canonical: profile.links.profileUrl,
      jsonLd: profile.structuredData,
    },
    main,
  );
}

/** Offers and questions are extras: if one fails the profile still renders without it. */
async function extra<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof TRPCError && toPublicError(error).status !== 429) return null;
    throw error;
  }
}

async function sendGonePage(res: Response, caller: Caller, slug: string, status: number, message: string): Promise<void> {
  let alternatives: Awaited<ReturnType<Caller["pages"]["alternatives"]>> | null = null;
  if (status === 410) {
    try {
      alternatives = await caller.pages.alternatives({ slug, limit: 5 });
    } catch {
      alternatives = null;
    }
  }
  const title = status === 410 ? "This business is no longer listed" : "No business at this address";
  let offer: string;
  if (alternatives) {
    const { category, city } = alternatives;
    const cityParam = `${city.name}, ${city.country}`;
    offer = `<h2 id="alternatives">Other ${escapeHtml(category.name.toLowerCase())} listings in ${escapeHtml(city.name)}</h2>
${alternatives.alternatives.length ? `<ul class="results">${alternatives.alternatives.map((listing) => listingItem(listing)).join("")}</ul>` : "<p>None listed right now.</p>"}
<p><a href="${escapeHtml(browseHref(category.slug, cityParam))}">All ${escapeHtml(category.name.toLowerCase())} listings in ${escapeHtml(city.name)}</a></p>${searchForms({ category: category.name, city: cityParam })}`;
  } else {
    offer = `${searchForms()}${await popularOrNothing(caller)}`;
  }
  const explanation =
    status === 410
      ? "The business that had this page has closed its listing, or its subscription ran out. Its details are no longer published."
      : `We have no business with the address “${escapeHtml(slug)}”. It may have been mistyped; search the directory instead.`;
  res
    .status(status)
    .type("html")
    .send(layout({ title, noindex: true }, `<h1>${escapeHtml(title)}</h1><p>${explanation}</p><p class="muted">${escapeHtml(message)}</p>${offer}`));
}

export async function businessPage(req: Request, res: Response, { caller, extras }: PageCallers): Promise<void> {
  const slug = String(req.params.slug);
  try {
    // The profile is the view's one counted call; the rest of the page is read after it, uncounted.
    const profile = await caller.entities.getEntityProfile({ slug });
    const current = profile.identity.slug;
    const [offers, questions, hours] = await Promise.all([
      extra(extras.entities.getOffers({ slug: current })),
      extra(extras.entities.getBuyerQuestions({ slug: current })),
      extra(extras.pages.businessHours({ slug: current })),
    ]);
    res.type("html").send(renderProfile(profile, offers, questions, hours));
  } catch (error) {
    if (error instanceof TRPCError) {
      const { status, body } = toPublicError(error);
      if (status === 404 || status === 410) return sendGonePage(res, extras, slug, status, body.error);
    }
    await sendErrorPage(res, extras, error);
  }
}
