import { z } from "zod";

export const ZStartCheckoutOutput = z.object({ url: z.url().describe("The payment provider's hosted checkout page") });
