import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { LEAD_STATUSES } from "@directory/db/enums";
import { type ZLeadView } from "./leads.types";
import { ZManagedSlug } from "../owner/owner-listing.types";

export const ZTransitionLeadInput = z.object({ slug: ZManagedSlug, leadId: z.string().trim().min(1).max(64), status: z.enum(LEAD_STATUSES) });

export type TTransitionLeadInput = z.input<typeof ZTransitionLeadInput>;
export type TTransitionLeadOutput = z.infer<typeof ZLeadView>;

export const transitionLeadMeta: OpenApiMeta = {
  openapi: {
    method: "POST",
    path: "/api/v2/owner/leads/transition",
    operationId: "transitionLead",
    tags: ["owner"],
    summary: "The business moves one of its leads to its next status",
    description: "Business-scoped key only; the lead must have been sent to the key's own business. new -> contacted -> won or lost; new -> rejected.",
    errorResponses: {
      404: "No lead with this leadId was sent to the key's business",
      409: "The lead cannot move from its status to the one asked (the body names the allowed ones), or it changed meanwhile",
    },
  },
};
