import { z } from "zod";
import { ZListingSlugInput } from "./ownership.types";

export const ZVerifyEmailCodeInput = ZListingSlugInput.extend({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "the 6 digits of the code")
    .describe("The code mailed to the listing's address"),
});

export { ZProvenClaimOutput as ZVerifyEmailCodeOutput, type TProvenClaimOutput as TVerifyEmailCodeOutput } from "./ownership.types";
export type TVerifyEmailCodeInput = z.input<typeof ZVerifyEmailCodeInput>;
