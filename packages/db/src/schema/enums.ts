import { pgEnum } from "drizzle-orm/pg-core";
import { API_KEY_KINDS, BUSINESS_STATUSES, CLAIM_VERIFICATIONS, DELIVERY_STATUSES, LEAD_STATUSES, OWNERSHIPS, PLAN_TIERS, WEBHOOK_STATUSES } from "../enums";

/** The PostgreSQL enums, built from the value lists in ../enums.ts (which say what each value means). */
export const planTier = pgEnum("plan_tier", PLAN_TIERS);
export const businessStatus = pgEnum("business_status", BUSINESS_STATUSES);
export const ownership = pgEnum("ownership", OWNERSHIPS);
export const claimVerification = pgEnum("claim_verification", CLAIM_VERIFICATIONS);
export const apiKeyKind = pgEnum("api_key_kind", API_KEY_KINDS);
export const leadStatus = pgEnum("lead_status", LEAD_STATUSES);
export const webhookStatus = pgEnum("webhook_status", WEBHOOK_STATUSES);
export const deliveryStatus = pgEnum("webhook_delivery_status", DELIVERY_STATUSES);

export * from "../enums";
