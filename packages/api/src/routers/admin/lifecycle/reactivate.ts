import { reactivateBusiness } from "../../../services/claims/lifecycle";
import { adminProcedure } from "../../../procedures/builders";
import { ZLifecycleSummary } from "./lifecycle.types";
import { ZReactivateInput } from "./reactivate.types";

/** Brings a business back, renewing its subscription when it has run out. */
export const reactivate = adminProcedure
  .input(ZReactivateInput)
  .output(ZLifecycleSummary)
  .mutation(({ ctx, input }) =>
    reactivateBusiness(ctx.db, { slug: input.slug, renewUntil: input.subscriptionExpiresAt === undefined ? undefined : new Date(input.subscriptionExpiresAt) }),
  );
