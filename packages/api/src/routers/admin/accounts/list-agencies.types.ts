import { z } from "zod";
import { AGENCIES_LISTED_MAX } from "../../../services/agencies/agency-admin";
import { ZAdminAccountPlan } from "./accounts.types";

export const ZListAgenciesInput = z.object({ limit: z.number().int().min(1).max(AGENCIES_LISTED_MAX).default(100) });

export const ZAdminAgencySummary = z.object({
  slug: z.string(),
  name: z.string(),
  createdAt: z.string(),
  members: z.number().int().describe("Members now"),
  businesses: z.number().int().describe("Listings the agency may manage now"),
  plan: ZAdminAccountPlan.nullable().describe("The agency's stored plan, even when it no longer counts"),
});

export const ZListAgenciesOutput = z.array(ZAdminAgencySummary);

export type TListAgenciesOutput = z.infer<typeof ZListAgenciesOutput>;
