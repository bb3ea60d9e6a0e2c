import type { Request, Response } from "express";
import { escapeHtml, queryString } from "../html";
import type { Caller } from "./errors";
import { sendErrorPage } from "./errors";

const XML_TYPE = "application/xml; charset=utf-8";

/** Crawlers may read every page; the keyed and machine-only API areas are not for them. */
export function robotsTxt(baseUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Allow: /api/openapi.json",
    "Disallow: /api/",
    "Disallow: /trpc/",
    "Disallow: /search",
    "",
    `Sitemap: ${baseUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

export function profileSitemapHref(range: { from: string; to: string | null }): string {
  return `/sitemaps/profiles.xml${queryString({ from: range.from, to: range.to ?? undefined })}`;
}

/** The sitemap index: one static sitemap, then one bounded page per SITEMAP_PAGE_SIZE public profiles. */
export async function sitemapIndex(res: Response, caller: Caller, baseUrl: string): Promise<void> {
  try {
    const index = await caller.pages.sitemapIndex();
    const entries = [`${baseUrl}/sitemaps/site.xml`, ...index.pages.map((page) => `${baseUrl}${profileSitemapHref(page)}`)]
      .map((loc) => `<sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`)
      .join("\n");
    res.type(XML_TYPE).setHeader("Cache-Control", "public, max-age=3600");
    res.send(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`);
  } catch (error) {
    await sendErrorPage(res, caller, error);
  }
}

export function siteSitemap(res: Response, baseUrl: string): void {
  res.type(XML_TYPE).setHeader("Cache-Control", "public, max-age=3600");
  res.send(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>${escapeHtml(`${baseUrl}/`)}</loc></url>\n</urlset>\n`,
  );
}

/** One page of public profile URLs: the slug range the index names. */
export async function profileSitemap(req: Request, res: Response, caller: Caller): Promise<void> {
  const from = typeof req.query.from === "string" ? req.query.from : "";
  const to = typeof req.query.to === "string" ? req.query.to : undefined;
  try {
    const page = await caller.pages.sitemapPage({ from, to });
    const urls = page.profiles.map((p) => `<url><loc>${escapeHtml(p.url)}</loc><lastmod>${escapeHtml(p.updatedAt)}</lastmod></url>`).join("\n");
    res.type(XML_TYPE).setHeader("Cache-Control", "public, max-age=3600");
    res.send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  } catch (error) {
    await sendErrorPage(res, caller, error);
  }
}
