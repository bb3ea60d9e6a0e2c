import { changeBusinessSlug, decommissionBusiness, reactivateBusiness, renameBusiness } from "../../services/claims/lifecycle";
import { adminProcedure, router } from "../../trpc";
import { ZChangeSlugInput, ZDecommissionInput, ZLifecycleSummary, ZReactivateInput, ZRenameInput } from "./lifecycle.types";

/** Admin-only entity lifecycle; every change writes an entity.updated outbox event in its transaction. */
export const lifecycleRouter = router({
  decommission: adminProcedure
    .input(ZDecommissionInput)
    .output(ZLifecycleSummary)
    .mutation(({ ctx, input }) => decommissionBusiness(ctx.db, input.slug)),
  reactivate: adminProcedure
    .input(ZReactivateInput)
    .output(ZLifecycleSummary)
    .mutation(({ ctx, input }) =>
      reactivateBusiness(ctx.db, input.slug, input.subscriptionExpiresAt ? new Date(input.subscriptionExpiresAt) : undefined),
    ),
  rename: adminProcedure
    .input(ZRenameInput)
    .output(ZLifecycleSummary)
    .mutation(({ ctx, input }) => renameBusiness(ctx.db, input.slug, input.name)),
  changeSlug: adminProcedure
    .input(ZChangeSlugInput)
    .output(ZLifecycleSummary)
    .mutation(({ ctx, input }) => changeBusinessSlug(ctx.db, input.slug, input.newSlug)),
});
