import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Express, Response } from "express";

/**
 * /docs: the interactive API reference, Swagger UI rendering /api/openapi.json. Every file comes
 * from this origin (the renderer from node_modules/swagger-ui-dist, resolved at run time so it
 * works from the sources and from the bundle in dist/), so the page runs under a CSP allowing
 * only 'self' scripts and styles: nothing is inline (Swagger UI sets styles through the CSSOM,
 * which a CSP does not restrict). "Try it out" calls the document's first server, "/": the origin
 * the page was opened at, whatever its address (127.0.0.1, a LAN address, a proxy's host). The
 * second, the public base URL, may be another origin: the CSP lets the page call it too.
 */

const ASSET_PREFIX = "/docs/assets";
const YEAR_SECONDS = 365 * 24 * 3600;

/** Only what Swagger UI needs: its script and stylesheet, ours, fetches to this origin and the public one, data: icons. */
export function docsCsp(publicBaseUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${new URL(publicBaseUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Runs after the bundle (both deferred, in order); validatorUrl null: no badge fetched from swagger.io. */
const INIT_SCRIPT = `"use strict";
window.ui = window.SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#api-reference",
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

const PAGE_STYLE = `body { margin: 0; }
.docs-header { font-family: system-ui, sans-serif; padding: 0.75rem 1.25rem; border-bottom: 1px solid #ddd; }
.docs-header a { color: #1a4f8b; }
`;

interface Asset {
  file: string;
  body: Buffer;
  type: string;
  url: string;
}

function fingerprint(body: Buffer | string): string {
  return createHash("sha256").update(body).digest("hex").slice(0, 12);
}

function asset(name: string, type: string, body: Buffer): Asset {
  return { file: name, body, type, url: `${ASSET_PREFIX}/${name}?v=${fingerprint(body)}` };
}

function loadAssets(): Asset[] {
  const swaggerDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return [
    asset("swagger-ui-bundle.js", "text/javascript; charset=utf-8", readFileSync(path.join(swaggerDir, "swagger-ui-bundle.js"))),
    asset("swagger-ui.css", "text/css; charset=utf-8", readFileSync(path.join(swaggerDir, "swagger-ui.css"))),
    asset("docs.js", "text/javascript; charset=utf-8", Buffer.from(INIT_SCRIPT)),
    asset("docs.css", "text/css; charset=utf-8", Buffer.from(PAGE_STYLE)),
  ];
}

function page(assets: Record<string, Asset>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference - Business Directory</title>
<meta name="description" content="Interactive reference of the Business Directory REST API, rendered from /api/openapi.json">
<link rel="stylesheet" href="${assets["swagger-ui.css"]!.url}">
<link rel="stylesheet" href="${assets["docs.css"]!.url}">
<script defer src="${assets["swagger-ui-bundle.js"]!.url}"></script>
<script defer src="${assets["docs.js"]!.url}"></script>
</head>
<body>
<header class="docs-header"><a href="/">Business Directory</a> · API reference · <a href="/api/openapi.json">openapi.json</a></header>
<main id="api-reference"><noscript>The interactive reference needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></main>
</body>
</html>
`;
}

function securityHeaders(res: Response): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
}

export function mountDocs(app: Express, publicBaseUrl: string): void {
  const csp = docsCsp(publicBaseUrl);
  const assets = loadAssets();
  const html = page(Object.fromEntries(assets.map((a) => [a.file, a])));
  app.get("/docs", (_req, res) => {
    securityHeaders(res);
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("Cache-Control", "no-cache");
    res.type("text/html; charset=utf-8").send(html);
  });
  for (const { file, body, type } of assets) {
    const etag = `"${fingerprint(body)}"`;
    // The page names each asset with its content hash, so a cached copy never goes stale.
    app.get(`${ASSET_PREFIX}/${file}`, (_req, res) => {
      securityHeaders(res);
      res.setHeader("Cache-Control", `public, max-age=${YEAR_SECONDS}, immutable`);
      res.setHeader("ETag", etag);
      res.type(type).send(body);
    });
  }
}
