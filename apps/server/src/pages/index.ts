import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { createCaller, type Context } from "@directory/api";
import { browsePage } from "./browse";
import { businessPage } from "./business";
import type { Caller } from "./errors";
import { homePage } from "./home";
import { pageSecurityHeaders, STYLESHEET_PATH } from "./layout";
import { searchPage } from "./search";
import { profileSitemap, robotsTxt, siteSitemap, sitemapIndex } from "./sitemap";
import { SITE_CSS } from "./site-css";

type Handler = (req: Request, res: Response, page: { caller: Caller; baseUrl: string }) => Promise<void> | void;

/** Human-readable pages; like every door they call procedures, never the database. */
export function mountPages(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  const page =
    (handler: Handler): RequestHandler =>
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const context = contextFor(req, res);
        await handler(req, res, { caller: createCaller(context), baseUrl: context.publicBaseUrl });
      } catch (error) {
        next(error);
      }
    };

  app.get(
    "/",
    pageSecurityHeaders,
    page((_req, res, { caller, baseUrl }) => homePage(res, caller, baseUrl)),
  );
  app.get(
    "/business/:slug",
    pageSecurityHeaders,
    page((req, res, { caller }) => businessPage(req, res, caller)),
  );
  app.get(
    "/browse",
    pageSecurityHeaders,
    page((req, res, { caller, baseUrl }) => browsePage(req, res, caller, baseUrl)),
  );
  app.get(
    "/search",
    pageSecurityHeaders,
    page((req, res, { caller }) => searchPage(req, res, caller)),
  );

  app.get(
    "/robots.txt",
    pageSecurityHeaders,
    page((_req, res, { baseUrl }) => {
      res.type("text/plain; charset=utf-8").send(robotsTxt(baseUrl));
    }),
  );
  app.get(
    "/sitemap.xml",
    pageSecurityHeaders,
    page((_req, res, { caller, baseUrl }) => sitemapIndex(res, caller, baseUrl)),
  );
  app.get(
    "/sitemaps/site.xml",
    pageSecurityHeaders,
    page((_req, res, { baseUrl }) => siteSitemap(res, baseUrl)),
  );
  app.get(
    "/sitemaps/profiles.xml",
    pageSecurityHeaders,
    page((req, res, { caller }) => profileSitemap(req, res, caller)),
  );

  const stylesheetPath = STYLESHEET_PATH.split("?")[0]!;
  app.get(stylesheetPath, pageSecurityHeaders, (req, res) => {
    // The URL carries the content hash; only the current one is cacheable for a year.
    const current = req.originalUrl === STYLESHEET_PATH;
    res.setHeader("Cache-Control", current ? "public, max-age=31536000, immutable" : "public, max-age=300");
    res.type("text/css; charset=utf-8").send(SITE_CSS);
  });
}
