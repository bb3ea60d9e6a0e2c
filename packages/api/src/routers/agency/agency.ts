import { DomainError } from "../../errors";
import { agencyMemberProcedure, agencyOwnerProcedure, sessionProcedure } from "../../procedures/builders";
import { createAccountKey, listAccountKeys, revokeAccountKey } from "../../services/accounts/account-keys";
import { currentPlanOf } from "../../services/accounts/plans";
import { createAgency, inviteAgencyMember, listAgencyMembers, removeAgencyMember } from "../../services/agencies/agencies";
import { listAgencyBusinesses } from "../../services/agencies/agency-access";
import { requireMailer } from "../../services/mail/require-mailer";
import { ZCreateAccountKeyInput, ZCreateAccountKeyOutput, ZRevokeAccountKeyInput, ZRevokeAccountKeyOutput } from "../account/account-keys.types";
import { ZStartCheckoutOutput } from "../account/start-checkout.types";
import {
  ZAgencyKeys,
  ZAgencyMember,
  ZAgencyOverview,
  ZAgencyRef,
  ZCreateAgencyInput,
  ZInviteMemberInput,
  ZRemoveMemberInput,
  ZRemoveMemberOutput,
} from "./agency.types";

/*
 * An agency's dashboard (tRPC and the pages, not REST). Members see its businesses and open their
 * dashboards; owners also manage its members, its plan and its developer keys, which its own
 * account holds (agencies.ts), so plans and keys work as they do for a person.
 */

export const create = sessionProcedure
  .input(ZCreateAgencyInput)
  .output(ZAgencyRef)
  .mutation(async ({ ctx, input }) => {
    const agency = await createAgency(ctx.db, { accountId: ctx.session.account.id, name: input.name });
    return { slug: agency.slug, name: agency.name, role: agency.role };
  });

export const overview = agencyMemberProcedure.output(ZAgencyOverview).query(async ({ ctx }) => {
  const { agency } = ctx;
  const plan = await currentPlanOf(ctx.db, agency.accountId);
  return {
    agency: { slug: agency.slug, name: agency.name, role: agency.role },
    businesses: await listAgencyBusinesses(ctx.db, agency.id),
    members: await listAgencyMembers(ctx.db, agency.id),
    plan: plan && { name: plan.name, activeUntil: plan.activeUntil },
  };
});

export const inviteMember = agencyOwnerProcedure
  .input(ZInviteMemberInput)
  .output(ZAgencyMember)
  .mutation(({ ctx, input }) =>
    inviteAgencyMember(ctx.db, {
      agency: ctx.agency,
      email: input.email,
      role: input.role,
      invitedBy: ctx.session.account.id,
      mailer: requireMailer(ctx.mailer, "invite members on the agency's dashboard page"),
      publicBaseUrl: ctx.publicBaseUrl,
    }),
  );

export const removeMember = agencyOwnerProcedure
  .input(ZRemoveMemberInput)
  .output(ZRemoveMemberOutput)
  .mutation(async ({ ctx, input }) => {
    await removeAgencyMember(ctx.db, { agencyId: ctx.agency.id, email: input.email });
    return { removed: true as const };
  });

export const listKeys = agencyOwnerProcedure.output(ZAgencyKeys).query(({ ctx }) => listAccountKeys(ctx.db, ctx.agency.accountId, ctx.rateLimits));

export const createKey = agencyOwnerProcedure
  .input(ZCreateAccountKeyInput)
  .output(ZCreateAccountKeyOutput)
  .mutation(({ ctx, input }) => createAccountKey(ctx.db, ctx.agency.accountId, input.label));

export const revokeKey = agencyOwnerProcedure
  .input(ZRevokeAccountKeyInput)
  .output(ZRevokeAccountKeyOutput)
  .mutation(async ({ ctx, input }) => {
    await revokeAccountKey(ctx.db, ctx.agency.accountId, input.id);
    return { revoked: true as const };
  });

/** The developer plan's hosted checkout, for the agency's own account (the person who pays is told by their own address). */
export const startCheckout = agencyOwnerProcedure.output(ZStartCheckoutOutput).mutation(({ ctx }) => {
  if (!ctx.paymentProvider) throw new DomainError("NOT_FOUND", "Plans are not sold online here: an operator grants them");
  return ctx.paymentProvider.startCheckout({
    accountId: ctx.agency.accountId,
    email: ctx.session.account.email,
    successUrl: `${ctx.publicBaseUrl}/dashboard/agency/${ctx.agency.slug}?checkout=done`,
    cancelUrl: `${ctx.publicBaseUrl}/dashboard/agency/${ctx.agency.slug}?checkout=cancelled`,
  });
});
