import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { createCaller, type Context } from "@directory/api";
import { mountAccountPages } from "./account-door";
import { browsePage } from "./browse";
import { businessPage } from "./business";
import type { PageCallers } from "./errors";
import { homePage } from "./home";
import { NEAR_ME_SCRIPT_PATH, pageSecurityHeaders, STYLESHEET_PATH } from "./layout";
import { mcpPage } from "./mcp";
import { NEAR_ME_SCRIPT } from "./near-me-script";
import { searchPage } from "./search";
import { profileSitemap, robotsTxt, siteSitemap, sitemapIndex } from "./sitemap";
import { SITE_CSS } from "./site-css";

type Handler = (req: Request, res: Response, page: PageCallers) => Promise<void> | void;

/** Human-readable pages; like every door they call procedures, never the database. */
export { htmlNotFound } from "./errors";

export function mountPages(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  const page =
    (handler: Handler): RequestHandler =>
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const context = contextFor(req, res);
        // No address and no key: an in-process caller, which no limit counts (context.ts).
        const extras = createCaller({ ...context, clientIp: null, bearerToken: null });
        await handler(req, res, { caller: createCaller(context), extras, baseUrl: context.publicBaseUrl });
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
    "/mcp",
    pageSecurityHeaders,
    page((_req, res, { baseUrl }) => mcpPage(res, baseUrl)),
  );
  app.get(
    "/business/:slug",
    pageSecurityHeaders,
    page((req, res, callers) => businessPage(req, res, callers)),
  );
  app.get(
    "/browse",
    pageSecurityHeaders,
    page((req, res, callers) => browsePage(req, res, callers)),
  );
  app.get(
    "/search",
    pageSecurityHeaders,
    page((req, res, callers) => searchPage(req, res, callers)),
  );

  // /developers, /sign-in, /sign-out, /dashboard: a person's own account, with their session.
  mountAccountPages(app, contextFor);

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

  // The URL carries the content hash; only the current one is cacheable for a year.
  const asset = (path: string, type: string, body: string): void => {
    app.get(path.split("?")[0]!, pageSecurityHeaders, (req, res) => {
      res.setHeader("Cache-Control", req.originalUrl === path ? "public, max-age=31536000, immutable" : "public, max-age=300");
      res.type(type).send(body);
    });
  };
  asset(STYLESHEET_PATH, "text/css; charset=utf-8", SITE_CSS);
  asset(NEAR_ME_SCRIPT_PATH, "text/javascript; charset=utf-8", NEAR_ME_SCRIPT);
}
