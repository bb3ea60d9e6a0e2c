import { z } from "zod";
import { businessManagerProcedure, businessProcedure, listingOwnerProcedure } from "../../procedures/builders";
import { grantAgencyAccess, listBusinessAgencies, withdrawAgencyAccess } from "../../services/agencies/agency-access";
import { findBusinessById } from "../../services/entities/business-lookup";
import { listBusinessLeads } from "../../services/leads/business-leads";
import { createBusinessKey, listBusinessKeys, revokeBusinessKey } from "../../services/owner/business-keys";
import { keyHolderOf } from "../../services/owner/business-managers";
import { inviteCoOwner, listCoOwners, removeCoOwner } from "../../services/owner/co-owners";
import { listBusinessWebhooks } from "../../services/webhooks/registry";
import { requireMailer } from "../../services/mail/require-mailer";
import { ZListWebhooksOutput } from "../webhooks/list-webhooks.types";
import {
  ZAgencyAccessInput,
  ZBusinessKey,
  ZBusinessLead,
  ZCoOwner,
  ZCoOwnerInput,
  ZCreateBusinessKeyInput,
  ZCreateBusinessKeyOutput,
  ZGrantedAgency,
  ZListLeadsInput,
  ZManagedInput,
  ZOverviewOutput,
  ZRevokeBusinessKeyInput,
  ZRevoked,
} from "./dashboard.types";

/*
 * The owner dashboard's own procedures (tRPC and the pages, not REST). The builders decide who may
 * call: a signed-in manager (an owner, or an agency member with access) names the business by slug;
 * co-owners and agencies' access are the owners' alone; the leads list also takes the business key.
 */

export const overview = businessManagerProcedure
  .input(ZManagedInput)
  .output(ZOverviewOutput)
  .query(async ({ ctx }) => {
    const business = await findBusinessById(ctx.db, ctx.business.id);
    if (!business) throw new Error(`business ${ctx.business.id} vanished`);
    const role = ctx.actor.kind === "session" ? ctx.actor.manager.role : "owner";
    return { business: { slug: business.slug, name: business.name, ownership: business.ownership }, role };
  });

export const listLeads = businessProcedure
  .input(ZListLeadsInput)
  .output(z.array(ZBusinessLead))
  .query(({ ctx, input }) => listBusinessLeads(ctx.db, { businessId: ctx.business.id, limit: input.limit }));

export const listKeys = businessManagerProcedure
  .input(ZManagedInput)
  .output(z.array(ZBusinessKey))
  .query(({ ctx }) => listBusinessKeys(ctx.db, ctx.business.id));

export const createKey = businessManagerProcedure
  .input(ZCreateBusinessKeyInput)
  .output(ZCreateBusinessKeyOutput)
  .mutation(({ ctx, input }) => {
    const holderAccountId = ctx.actor.kind === "session" ? keyHolderOf(ctx.actor.manager) : null;
    if (!holderAccountId) throw new Error("a business key is made signed in only");
    return createBusinessKey(ctx.db, { businessId: ctx.business.id, holderAccountId, label: input.label });
  });

export const revokeKey = businessManagerProcedure
  .input(ZRevokeBusinessKeyInput)
  .output(ZRevoked)
  .mutation(async ({ ctx, input }) => {
    await revokeBusinessKey(ctx.db, { businessId: ctx.business.id, keyId: input.id });
    return { revoked: true as const };
  });

export const listWebhooks = businessManagerProcedure
  .input(ZManagedInput)
  .output(ZListWebhooksOutput)
  .query(({ ctx }) => listBusinessWebhooks(ctx.db, ctx.business.id));

export const listOwners = businessManagerProcedure
  .input(ZManagedInput)
  .output(z.array(ZCoOwner))
  .query(({ ctx }) => listCoOwners(ctx.db, ctx.business.id));

export const inviteOwner = listingOwnerProcedure
  .input(ZCoOwnerInput)
  .output(ZCoOwner)
  .mutation(({ ctx, input }) =>
    inviteCoOwner(ctx.db, {
      businessId: ctx.business.id,
      email: input.email,
      invitedBy: sessionAccountOf(ctx.actor),
      mailer: requireMailer(ctx.mailer, "invite co-owners on the listing's dashboard page"),
      publicBaseUrl: ctx.publicBaseUrl,
    }),
  );

export const removeOwner = listingOwnerProcedure
  .input(ZCoOwnerInput)
  .output(z.object({ remainingOwners: z.number().int() }))
  .mutation(({ ctx, input }) => removeCoOwner(ctx.db, { businessId: ctx.business.id, email: input.email }));

export const listAgencies = businessManagerProcedure
  .input(ZManagedInput)
  .output(z.array(ZGrantedAgency))
  .query(({ ctx }) => listBusinessAgencies(ctx.db, ctx.business.id));

export const grantAgency = listingOwnerProcedure
  .input(ZAgencyAccessInput)
  .output(ZGrantedAgency)
  .mutation(({ ctx, input }) =>
    grantAgencyAccess(ctx.db, { businessId: ctx.business.id, agencySlug: input.agencySlug, grantedBy: sessionAccountOf(ctx.actor) }),
  );

export const withdrawAgency = listingOwnerProcedure
  .input(ZAgencyAccessInput)
  .output(z.object({ withdrawn: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await withdrawAgencyAccess(ctx.db, { businessId: ctx.business.id, agencySlug: input.agencySlug });
    return { withdrawn: true as const };
  });

function sessionAccountOf(actor: { kind: "key" } | { kind: "session"; manager: { accountId: string } }): string {
  if (actor.kind !== "session") throw new Error("an owners-only procedure is called signed in only");
  return actor.manager.accountId;
}
