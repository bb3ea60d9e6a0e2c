import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { createCaller, type Context } from "@directory/api";
import { formField, sendAccountError, type AccountHandler } from "./account-parts";
import { mountAgencyPages } from "./agency-pages";
import { claimPage, requestReview, sendEmailCode, startWebsiteClaim, verifyEmailCode, verifyWebsiteClaim } from "./claim";
import { dashboardPage, endSessionForm } from "./dashboard";
import { buyPlan, createKey, developersPage, revokeKey } from "./developers";
import { mountOwnerDashboardPages } from "./owner-dashboard";
import { pageSecurityHeaders } from "./layout";
import { confirmSignIn, requestSignIn, signInPage, signOut, verifySignIn } from "./sign-in";

/**
 * The account pages' door: /developers, /sign-in, /sign-out, /dashboard, /business/{slug}/claim. Like every door they call
 * procedures; the procedures do every check (session, Origin, CSRF token, ownership). The door
 * only hands them what the browser sent: the cookie, the Origin header unchanged, and a form's
 * csrfToken field as the request's CSRF token.
 */

/** The app's body parsers read JSON only; the forms are urlencoded, parsed only on their own routes. */
const forms = express.urlencoded({ extended: false, limit: "10kb" });

export function mountAccountPages(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  const door =
    (handler: AccountHandler): RequestHandler =>
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const requestContext = contextFor(req, res);
        const context = req.method === "POST" ? { ...requestContext, csrfToken: formField(req, "csrfToken") ?? null } : requestContext;
        const extras = createCaller({ ...context, clientIp: null, bearerToken: null });
        await handler(req, res, { caller: createCaller(context), extras, context });
      } catch (error) {
        try {
          sendAccountError(res, error);
        } catch (unexpected) {
          next(unexpected);
        }
      }
    };

  app.get("/developers", pageSecurityHeaders, door(developersPage));
  app.post("/developers/keys", pageSecurityHeaders, forms, door(createKey));
  app.post("/developers/keys/revoke", pageSecurityHeaders, forms, door(revokeKey));
  app.post("/developers/plan", pageSecurityHeaders, forms, door(buyPlan));
  app.get("/sign-in", pageSecurityHeaders, door(signInPage));
  app.post("/sign-in", pageSecurityHeaders, forms, door(requestSignIn));
  app.get("/sign-in/magic-link/verify", pageSecurityHeaders, confirmSignIn);
  app.post("/sign-in/magic-link/verify", pageSecurityHeaders, forms, door(verifySignIn));
  app.post("/sign-out", pageSecurityHeaders, forms, door(signOut));
  app.get("/dashboard", pageSecurityHeaders, door(dashboardPage));
  app.post("/dashboard/sessions/end", pageSecurityHeaders, forms, door(endSessionForm));
  mountOwnerDashboardPages(app, door);
  mountAgencyPages(app, door, forms);
  // Claiming a listing: "/business/:slug" (pages/index.ts) matches one segment only, so it never takes these.
  app.get("/business/:slug/claim", pageSecurityHeaders, door(claimPage));
  app.post("/business/:slug/claim/website", pageSecurityHeaders, forms, door(startWebsiteClaim));
  app.post("/business/:slug/claim/website/verify", pageSecurityHeaders, forms, door(verifyWebsiteClaim));
  app.post("/business/:slug/claim/email", pageSecurityHeaders, forms, door(sendEmailCode));
  app.post("/business/:slug/claim/email/verify", pageSecurityHeaders, forms, door(verifyEmailCode));
  app.post("/business/:slug/claim/review", pageSecurityHeaders, forms, door(requestReview));
}
