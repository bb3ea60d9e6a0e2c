import { router } from "../../procedures/trpc-instance";
import { receiveProviderEvent } from "./receive-provider-event";

/** The payment provider's side of billing: its webhook, served over tRPC for the server's own door, not the public REST API. */
export const billingRouter = router({ receiveProviderEvent });
