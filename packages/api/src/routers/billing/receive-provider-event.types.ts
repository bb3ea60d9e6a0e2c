import { z } from "zod";

/** Stripe's events are a few kilobytes; a megabyte leaves room and bounds what is read before the signature check. */
export const PROVIDER_EVENT_MAX_CHARS = 1024 * 1024;
export const PROVIDER_SIGNATURE_MAX_CHARS = 4 * 1024;

export const ZReceiveProviderEventInput = z.object({
  /** The request body exactly as received: the signature covers these bytes, not a re-serialised copy. */
  body: z.string().max(PROVIDER_EVENT_MAX_CHARS),
  /** The provider's signature header (Stripe-Signature). */
  signature: z.string().max(PROVIDER_SIGNATURE_MAX_CHARS),
});

export const ZReceiveProviderEventOutput = z.object({
  received: z.literal(true),
  outcome: z.enum(["applied", "duplicate", "ignored"]),
});

export type TReceiveProviderEventInput = z.input<typeof ZReceiveProviderEventInput>;
export type TReceiveProviderEventOutput = z.infer<typeof ZReceiveProviderEventOutput>;
