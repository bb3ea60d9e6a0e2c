import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { KEYWORD_QUERY_LENGTH } from "@directory/api/schemas";
import { escapeHtml, jsonLdScript, queryString } from "../html";
import { NEAR_ME_SCRIPT } from "./near-me-script";
import { SITE_CSS } from "./site-css";

/** Content-addressed, so the stylesheet can be cached for a year and still change with a release. */
const contentHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);
export const STYLESHEET_PATH = `/assets/site.css?v=${contentHash(SITE_CSS)}`;
/** The one script (the "Use my location" button), served like the stylesheet. */
export const NEAR_ME_SCRIPT_PATH = `/assets/near-me.js?v=${contentHash(NEAR_ME_SCRIPT)}`;

/**
 * The one place page security headers are set. Scripts only from our own files (no inline script:
 * the JSON-LD block is data, not script), styles only from our own stylesheet, forms only to us,
 * no framing. Geolocation only for this origin, and only when the visitor presses "Use my location".
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function pageSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Content-Security-Policy", PAGE_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(self)");
  next();
}

export interface PageMeta {
  title: string;
  description?: string;
  /** Absolute URL; also og:url. */
  canonical?: string;
  jsonLd?: unknown;
  /** noindex for pages that should not be in search results (errors, keyword searches). */
  noindex?: boolean;
}

const SITE_NAME = "Business Directory";

/** A whole page; `main` must already be escaped. */
export function layout(meta: PageMeta, main: string): string {
  const description = meta.description ? `<meta name="description" content="${escapeHtml(meta.description)}">` : "";
  const canonical = meta.canonical ? `<link rel="canonical" href="${escapeHtml(meta.canonical)}">` : "";
  const og = meta.canonical
    ? [
        `<meta property="og:type" content="website">`,
        `<meta property="og:site_name" content="${SITE_NAME}">`,
        `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
        meta.description ? `<meta property="og:description" content="${escapeHtml(meta.description)}">` : "",
        `<meta property="og:url" content="${escapeHtml(meta.canonical)}">`,
      ].join("")
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(meta.title)} · ${SITE_NAME}</title>${description}${canonical}${og}${meta.noindex ? '<meta name="robots" content="noindex">' : ""}
<link rel="stylesheet" href="${STYLESHEET_PATH}"><script src="${NEAR_ME_SCRIPT_PATH}" defer></script>${meta.jsonLd ? jsonLdScript(meta.jsonLd) : ""}
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="brand" href="/">${SITE_NAME}</a>
<nav aria-label="Site"><ul><li><a href="/">Search</a></li><li><a href="/developers">Developers</a></li><li><a href="/llms.txt">For AI agents</a></li><li><a href="/sign-in">Sign in</a></li></ul></nav></div></header>
<main id="main">
${main}
</main>
<footer><div class="bar"><nav aria-label="For agents and developers"><ul class="inline">
<li><a href="/developers">API keys and plans</a></li><li><a href="/docs">API documentation</a></li><li><a href="/api/openapi.json">OpenAPI</a></li><li><a href="/mcp">MCP server</a></li><li><a href="/llms.txt">llms.txt</a></li><li><a href="/sitemap.xml">Sitemap</a></li></ul></nav>
<p class="muted">Every fact carries its source. Paid plans rank first, and are labelled.</p>
<p class="muted">Listings imported from OpenStreetMap: data © OpenStreetMap contributors, available under the <a href="https://www.openstreetmap.org/copyright">Open Database Licence</a>.</p></div></footer>
</body></html>`;
}

/** Plan tiers as a visitor should read them: paid placement is said, never hidden. */
export function planTierLabel(tier: string): { text: string; paid: boolean } {
  switch (tier) {
    case "premium":
      return { text: "Premium (paid placement)", paid: true };
    case "pro":
      return { text: "Pro (paid placement)", paid: true };
    case "basic":
      return { text: "Basic (paid placement)", paid: true };
    default:
      return { text: "Free listing", paid: false };
  }
}

export function tierBadge(tier: string): string {
  const { text, paid } = planTierLabel(tier);
  return `<span class="tier${paid ? " paid" : ""}">${escapeHtml(text)}</span>`;
}

/** What the search forms show again: the last search's values. */
export interface SearchValues {
  category?: string;
  city?: string;
  q?: string;
  /** "lat,lng" as typed or filled in by "Use my location". */
  near?: string;
  /** An ISO 3166-1 alpha-2 code as typed; the procedure checks it (a 400 naming country). */
  country?: string;
  openNow?: boolean;
}

/**
 * The category + city form (to /browse) and the keyword form (to /search), with labelled fields.
 * The browse form also takes "open now" and a point ("near"): typed as lat,lng, or filled in by
 * the "Use my location" button, which the served script shows only where geolocation exists, so
 * the form works the same with JavaScript off. With a point, category and city are optional.
 */
export function searchForms(values: SearchValues = {}, headingLevel = 2): string {
  const h = `h${headingLevel}`;
  return `<section aria-labelledby="find-heading"><${h} id="find-heading">Find a business</${h}>
<form class="search" action="/browse" method="get" role="search" aria-label="By category and city">
<div><label for="f-category">Category</label><input id="f-category" name="category" maxlength="100" placeholder="e.g. dentist" value="${escapeHtml(values.category)}"></div>
<div><label for="f-city">City</label><input id="f-city" name="city" maxlength="100" placeholder="e.g. Mumbai" value="${escapeHtml(values.city)}"></div>
<div><label for="f-country">Country code (optional)</label><input id="f-country" name="country" maxlength="2" autocomplete="off" placeholder="e.g. LI" aria-describedby="f-country-help" value="${escapeHtml(values.country)}">
<span id="f-country-help" class="hint">Two letters (ISO 3166-1). With a country, the city may be left empty.</span></div>
<div><label for="f-near">Near (latitude,longitude)</label><input id="f-near" name="near" maxlength="60" inputmode="decimal" autocomplete="off" placeholder="e.g. 19.076,72.8777" aria-describedby="f-near-help f-near-status" value="${escapeHtml(values.near)}">
<span id="f-near-help" class="hint">Optional. With a place, category and city may be left empty.</span>
<button type="button" class="secondary" data-near-target="f-near" data-near-status="f-near-status" hidden>Use my location</button><span id="f-near-status" class="hint" role="status"></span></div>
<div class="check"><input type="checkbox" id="f-open" name="openNow" value="true"${values.openNow ? " checked" : ""}><label for="f-open">Open now</label></div>
<button type="submit">Search</button></form>
<form class="search" action="/search" method="get" role="search" aria-label="By keywords">
<div><label for="f-q">Keywords</label><input id="f-q" name="q" required minlength="${KEYWORD_QUERY_LENGTH.min}" maxlength="${KEYWORD_QUERY_LENGTH.max}" placeholder="e.g. root canal emergency" value="${escapeHtml(values.q)}"></div>
<div><label for="f-q-city">City (optional)</label><input id="f-q-city" name="city" maxlength="100" value="${escapeHtml(values.q === undefined ? "" : values.city)}"></div>
<button type="submit">Search keywords</button></form></section>`;
}

export function browseHref(category: string, city: string): string {
  return `/browse${queryString({ category, city })}`;
}

/** Popular categories and cities as links; each category links to its listings in the first city. */
export function popularLinks(
  overview: { categories: { slug: string; name: string }[]; cities: { name: string; country: string }[] },
  headingLevel = 2,
): string {
  const h = `h${headingLevel}`;
  const topCity = overview.cities[0];
  const cityParam = (city: { name: string; country: string }) => `${city.name}, ${city.country}`;
  const categories = overview.categories
    .map(
      (c) =>
        `<li><a href="${escapeHtml(topCity ? browseHref(c.slug, cityParam(topCity)) : `/search${queryString({ q: c.name })}`)}">${escapeHtml(c.name)}</a></li>`,
    )
    .join("");
  const firstCategory = overview.categories[0];
  const cities = overview.cities
    .map((city) => `<li><a href="${escapeHtml(firstCategory ? browseHref(firstCategory.slug, cityParam(city)) : "/")}">${escapeHtml(city.name)}</a></li>`)
    .join("");
  return `<section aria-labelledby="popular-categories"><${h} id="popular-categories">Popular categories${topCity ? ` in ${escapeHtml(topCity.name)}` : ""}</${h}><ul class="inline">${categories}</ul></section>
<section aria-labelledby="popular-cities"><${h} id="popular-cities">Popular cities${firstCategory ? ` for ${escapeHtml(firstCategory.name.toLowerCase())}` : ""}</${h}><ul class="inline">${cities}</ul></section>`;
}

/** "opens Monday 09:00", "closes today 18:00": the business's own clock, read from the local time with its offset. */
export function nextChangeText(nextChange: { change: "opens" | "closes"; local: string }, now = new Date()): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})[^+-]*([+-])(\d{2}):(\d{2})$/.exec(nextChange.local);
  if (!match) return nextChange.change;
  const [, date, clock, sign, hours, minutes] = match;
  const offsetMs = (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000;
  // The business's date now, by the offset the change is given in (a DST shift in between moves it an hour at most).
  const localToday = new Date(now.getTime() + offsetMs).toISOString().slice(0, 10);
  const dayAfter = new Date(Date.parse(`${localToday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const day =
    date === localToday
      ? "today"
      : date === dayAfter
        ? "tomorrow"
        : new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  return `${nextChange.change} ${day} ${clock}`;
}

/** "850 m", "3.2 km": distances as a person reads them. */
export function distanceText(km: number): string {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km < 10 ? km.toFixed(1) : Math.round(km)} km`;
}

/** A listing row for browse, search and alternatives. */
export function listingItem(listing: {
  name: string;
  profileUrl: string;
  slug: string;
  planTier: string;
  address: string | null;
  category: string;
  city: string;
  verified: boolean;
  rating: number | null;
  openingHours?: string;
  openNow?: boolean;
  nextChange?: { change: "opens" | "closes"; local: string } | null;
  distanceKm?: number;
}): string {
  const path = `/business/${encodeURIComponent(listing.slug)}`;
  const rating = listing.rating === null ? "" : ` · rated ${listing.rating}/5`;
  const distance = listing.distanceKm === undefined ? "" : ` · ${distanceText(listing.distanceKm)} away`;
  // Open or closed is said in words (not colour), with when that changes in the business's own time.
  const state =
    listing.openNow === undefined
      ? ""
      : `<br><strong class="state">${listing.openNow ? "Open now" : "Closed now"}</strong>${listing.nextChange ? `, ${escapeHtml(nextChangeText(listing.nextChange))} (local time)` : listing.openNow ? ", open 24 hours" : ""}`;
  const hours = listing.openingHours ? `<br><span class="muted">Hours (local time): ${escapeHtml(listing.openingHours)}</span>` : "";
  return `<li><a href="${escapeHtml(path)}">${escapeHtml(listing.name)}</a> ${tierBadge(listing.planTier)}<br><span class="muted">${escapeHtml(listing.category)} · ${listing.address ? `${escapeHtml(listing.address)} · ` : ""}${listing.verified ? "Owner-verified" : "Unclaimed"}${rating}${distance}</span>${state}${hours}</li>`;
}

/**
 * The licence lines an open source requires wherever its data is shown (ODbL: OpenStreetMap's):
 * under a profile's facts, and as the footer of a page of results (the answer's attributions).
 */
export function attributionLines(attributions: readonly { text: string; licence: string; url: string }[]): string {
  return attributions.map((a) => `<p class="attribution">${escapeHtml(a.text)} (<a href="${escapeHtml(a.url)}">${escapeHtml(a.licence)}</a>)</p>`).join("");
}
