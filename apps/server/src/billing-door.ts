import express, { type Express, type Request, type Response } from "express";
import { createCaller, type Context } from "@directory/api";
import { sendRefusal } from "./errors";

/** Where the payment provider posts its events (configure it in the provider's dashboard). */
export const BILLING_WEBHOOK_PATH = "/api/billing/webhook";
/** A provider event is small; a larger body is refused before it is read whole. */
const EVENT_BODY_LIMIT = "1mb";

/**
 * The payment provider's door. Its signature covers the body's exact bytes, so the body is read as
 * text, before (and instead of) the app's JSON parser; the procedure verifies and applies it.
 */
export function mountBillingDoor(app: Express, contextFor: (req: Request, res: Response) => Context): void {
  app.post(BILLING_WEBHOOK_PATH, express.text({ type: () => true, limit: EVENT_BODY_LIMIT }), async (req, res) => {
    try {
      const body = typeof req.body === "string" ? req.body : "";
      const result = await createCaller(contextFor(req, res)).billing.receiveProviderEvent({ body, signature: req.get("stripe-signature") ?? "" });
      if (result.outcome === "ignored") req.log.info({ outcome: result.outcome }, "payment provider event ignored");
      res.json(result);
    } catch (error) {
      sendRefusal(req, res, error);
    }
  });
}
