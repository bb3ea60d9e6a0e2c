import { DomainError } from "../../errors";
import { openProcedure } from "../../procedures/builders";
import { applyBillingEvent } from "../../services/billing/billing-events";
import { ZReceiveProviderEventInput, ZReceiveProviderEventOutput } from "./receive-provider-event.types";

/**
 * The payment provider's webhook: anyone may call it, only a body the provider signed is read (a
 * bad signature is a 400), and each event changes a plan at most once. Served by the server's own
 * door, which hands over the raw body; never a REST operation.
 */
export const receiveProviderEvent = openProcedure
  .meta({ cache: "private" })
  .input(ZReceiveProviderEventInput)
  .output(ZReceiveProviderEventOutput)
  .mutation(async ({ ctx, input }) => {
    const provider = ctx.paymentProvider;
    if (!provider) throw new DomainError("NOT_FOUND", "No payment provider is configured");
    // Stripe is the one provider: its signature travels in Stripe-Signature.
    const event = await provider.readEvent(input.body, { "stripe-signature": input.signature });
    const outcome = await applyBillingEvent(ctx.db, provider.name, event);
    if (outcome === "ignored" && event.action !== "ignore") {
      ctx.log.warn(
        { provider: provider.name, eventId: event.id, eventType: event.type, accountId: event.accountId, subscriptionId: event.subscriptionId },
        "Payment provider event for no known account or plan; recorded, nothing changed",
      );
    }
    return { received: true as const, outcome };
  });
