import { DomainError } from "../../errors";
import { sessionProcedure } from "../../procedures/builders";
import { ZStartCheckoutOutput } from "./start-checkout.types";

/** Starts the payment provider's hosted checkout of the developer plan for the person's account. */
export const startCheckout = sessionProcedure.output(ZStartCheckoutOutput).mutation(async ({ ctx }) => {
  if (!ctx.paymentProvider) throw new DomainError("NOT_FOUND", "Plans are not sold online here: an operator grants them");
  return ctx.paymentProvider.startCheckout({
    accountId: ctx.session.account.id,
    email: ctx.session.account.email,
    successUrl: `${ctx.publicBaseUrl}/developers?checkout=done`,
    cancelUrl: `${ctx.publicBaseUrl}/developers?checkout=cancelled`,
  });
});
