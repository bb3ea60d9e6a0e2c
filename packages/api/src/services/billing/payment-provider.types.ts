/**
 * The one door to a payment provider (Stripe today, billing/stripe-provider.ts). The service knows
 * only this: it starts a hosted checkout and reads the provider's signed events.
 */
export interface PaymentProvider {
  /** The provider's name, stored as the plan's source and beside each event id. */
  readonly name: string;
  /** Where the hosted checkout lives: the one outside origin the buy form's redirect may reach (the page's CSP form-action). */
  readonly checkoutOrigin: string;
  /** Starts the provider's hosted checkout of the developer plan for an account; the caller is sent to `url`. */
  startCheckout(params: StartCheckoutParams): Promise<{ url: string }>;
  /** Verifies an event's signature with the provider's library and says what it means for a plan; throws on a bad signature. */
  readEvent(rawBody: string, headers: Record<string, string | undefined>): Promise<BillingEvent>;
}

export interface StartCheckoutParams {
  accountId: string;
  email: string;
  /** Where the provider sends the person back after paying, or after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/**
 * A provider event, in the plan's terms. `activate` starts or renews the plan until `activeUntil`;
 * `past_due` keeps it while the provider retries; `cancel` ends it; `ignore` is an event we do not act on.
 */
export type BillingEvent =
  | {
      id: string;
      type: string;
      action: "activate" | "past_due" | "cancel";
      accountId: string | null;
      subscriptionId: string;
      customerId: string | null;
      activeUntil: Date | null;
    }
  | { id: string; type: string; action: "ignore" };
