import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { escapeHtml, jsonLdScript, queryString } from "../html";
import { SITE_CSS } from "./site-css";

/** Content-addressed, so the stylesheet can be cached for a year and still change with a release. */
export const STYLESHEET_PATH = `/assets/site.css?v=${createHash("sha256").update(SITE_CSS).digest("hex").slice(0, 12)}`;

/**
 * The one place page security headers are set. No script may run (the JSON-LD block is data, not
 * script), styles only from our own stylesheet, forms only to us, no framing.
 */
export const PAGE_CSP = [
  "default-src 'none'",
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
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
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
<link rel="stylesheet" href="${STYLESHEET_PATH}">${meta.jsonLd ? jsonLdScript(meta.jsonLd) : ""}
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header><div class="bar"><a class="brand" href="/">${SITE_NAME}</a>
<nav aria-label="Site"><ul><li><a href="/">Search</a></li><li><a href="/docs">Developers</a></li><li><a href="/llms.txt">For AI agents</a></li></ul></nav></div></header>
<main id="main">
${main}
</main>
<footer><div class="bar"><nav aria-label="For agents and developers"><ul class="inline">
<li><a href="/docs">API documentation</a></li><li><a href="/api/openapi.json">OpenAPI</a></li><li><a href="/api/mcp">MCP server</a></li><li><a href="/llms.txt">llms.txt</a></li><li><a href="/sitemap.xml">Sitemap</a></li></ul></nav>
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

/** The category + city form (to /browse) and the keyword form (to /search), with labelled fields. */
export function searchForms(values: { category?: string; city?: string; q?: string } = {}, headingLevel = 2): string {
  const h = `h${headingLevel}`;
  return `<section aria-labelledby="find-heading"><${h} id="find-heading">Find a business</${h}>
<form class="search" action="/browse" method="get" role="search" aria-label="By category and city">
<div><label for="f-category">Category</label><input id="f-category" name="category" required maxlength="100" placeholder="e.g. dentist" value="${escapeHtml(values.category)}"></div>
<div><label for="f-city">City</label><input id="f-city" name="city" required maxlength="100" placeholder="e.g. Mumbai" value="${escapeHtml(values.city)}"></div>
<button type="submit">Search</button></form>
<form class="search" action="/search" method="get" role="search" aria-label="By keywords">
<div><label for="f-q">Keywords</label><input id="f-q" name="q" required minlength="2" maxlength="200" placeholder="e.g. root canal emergency" value="${escapeHtml(values.q)}"></div>
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

/** A listing row for browse, search and alternatives. */
export function listingItem(listing: {
  name: string;
  profileUrl: string;
  slug: string;
  planTier: string;
  address: string;
  category: string;
  city: string;
  verified: boolean;
  rating: number | null;
}): string {
  const path = `/business/${encodeURIComponent(listing.slug)}`;
  const rating = listing.rating === null ? "" : ` · rated ${listing.rating}/5`;
  return `<li><a href="${escapeHtml(path)}">${escapeHtml(listing.name)}</a> ${tierBadge(listing.planTier)}<br><span class="muted">${escapeHtml(listing.category)} · ${escapeHtml(listing.address)} · ${listing.verified ? "Owner-verified" : "Unclaimed"}${rating}</span></li>`;
}
