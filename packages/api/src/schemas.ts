/**
 * The procedures' own input and output schemas, for doors that describe their inputs and outputs
 * themselves (the MCP tools, the GraphQL types): a door takes the rule and the shape from here and
 * never restates them. Nothing here may reach drizzle: the stdio MCP server bundles this module.
 */
import type { z } from "zod";
import type { ZCorrectionList } from "./routers/corrections/corrections.types";
export { ZAvailableCitiesInput, ZAvailableCitiesOutput } from "./routers/search/available-cities.types";
export { ZGetListicleInput, ZGetListicleOutput } from "./routers/search/get-listicle.types";
export { ZSearchCategoryInput, ZSearchCategoryOutput } from "./routers/search/search-category.types";
export { ZCategoryLeadersInput, ZCategoryLeadersOutput } from "./routers/search/category-leaders.types";
export { KEYWORD_QUERY_LENGTH, ZSearchKeywordInput, ZSearchKeywordOutput } from "./routers/search/search-keyword.types";
export { LOOKUP_MAX_LIMIT, ZLookupBusinessesOutput } from "./routers/search/lookup-businesses.types";
export { ZBySlugInput } from "./routers/entities/entities.types";
export { ZBuyerQuestionsOutput } from "./routers/entities/get-buyer-questions.types";
export { ZOffersOutput } from "./routers/entities/get-offers.types";
export { ZCompareInput, ZCompareOutput } from "./routers/entities/compare-businesses.types";
export { ZGetEntityProfileInput } from "./routers/entities/get-entity-profile.types";
export { ZEntityProfile } from "./routers/entities/entity-profile.types";
export { ZAgentProfile } from "./routers/entities/get-agent-profile.types";
export { ZKnowledgeGraph } from "./routers/graph/get-knowledge-graph.types";
export { ZLeadView } from "./routers/leads/leads.types";
export { ZLeadStatusInput, ZLeadStatusOutput } from "./routers/leads/get-lead-status.types";
export { ZSubmitLeadInput, ZSubmitCorrectionInput } from "./procedures/submission-inputs";
export { ZSubmitLeadOutput } from "./routers/leads/submit-lead.types";
export { ZSubmitCorrectionOutput } from "./routers/corrections/submit-correction.types";
export { ZCitationsInput, ZCitationsOutput } from "./routers/owner/get-my-citations.types";
export { ZVisibilityOutput } from "./routers/owner/get-my-visibility-score.types";
/** What a claim's confidence means and how long each fact stays fresh: stated once, for the OpenAPI description and the MCP instructions. */
export { CONFIDENCE_MEANING, USEFUL_LIFE_DAYS } from "./services/claims/freshness";
/** What every door tells agents (versions, limits, ranking, contact): the MCP server's identity and instructions read it here. */
export * from "./services/agents/agent-facts";
/** The AI Catalog, the MCP server card and the registry's server.json, built from those facts. */
export * from "./services/agents/discovery-documents";
export { DATA_LICENCES_STATEMENT } from "./services/registry/attribution";
/** How every door introduces opening hours kept only as the source wrote them. */
export { HOURS_AS_WRITTEN } from "./services/entities/opening-hours";
/** The per-address bucket (IPv6: its /64) every per-client cap counts by, for the MCP mount's session caps. */
export { clientBucketOf } from "./services/access/client-ip";
/**
 * The output types of the procedures whose answers the server's tests read over HTTP: a test says
 * the body it expects in the procedure's own type, so a renamed or retyped field fails to compile there.
 */
export type { TSearchBusinessesOutput } from "./routers/search/search-businesses.types";
export type { TSearchCategoryOutput } from "./routers/search/search-category.types";
export type { TCategoryLeadersOutput } from "./routers/search/category-leaders.types";
export type { TSearchKeywordOutput } from "./routers/search/search-keyword.types";
export type { TLookupBusinessesOutput } from "./routers/search/lookup-businesses.types";
export type { TGetListicleOutput } from "./routers/search/get-listicle.types";
export type { TAvailableCitiesOutput } from "./routers/search/available-cities.types";
export type { TListCategoriesOutput } from "./routers/search/list-categories.types";
export type { TListing } from "./routers/search/listing.types";
export type { TClaim, TEntityProfile } from "./routers/entities/entity-profile.types";
export type { TGetAgentProfileOutput } from "./routers/entities/get-agent-profile.types";
export type { TCompareOutput } from "./routers/entities/compare-businesses.types";
export type { TGetOffersOutput } from "./routers/entities/get-offers.types";
export type { TGetBuyerQuestionsOutput } from "./routers/entities/get-buyer-questions.types";
export type { TGetAgentDiscoveryOutput } from "./routers/agents/get-agent-discovery.types";
export type { TGetAgenticGatewayOutput } from "./routers/agents/get-agentic-gateway.types";
export type { TGetPartnerFeedOutput } from "./routers/feed/get-partner-feed.types";
export type { TGetPartnerFeedChangesOutput } from "./routers/feed/get-partner-feed-changes.types";
export type { TSubmitCorrectionOutput } from "./routers/corrections/submit-correction.types";
/** The corrections an owner or an admin lists; its schema names no type of its own. */
export type TCorrectionList = z.infer<typeof ZCorrectionList>;
export type { TGetWebhookOutput } from "./routers/webhooks/get-webhook.types";
export type { TLeadView } from "./routers/leads/leads.types";
export type { TSubmitLeadOutput } from "./routers/leads/submit-lead.types";
export type { TLeadStatusOutput } from "./routers/leads/get-lead-status.types";
export type { TVisibilityOutput } from "./routers/owner/get-my-visibility-score.types";
export type { TCitationsOutput } from "./routers/owner/get-my-citations.types";
export type { TGetKnowledgeGraphOutput } from "./routers/graph/get-knowledge-graph.types";
export type { TCreateWebhookOutput } from "./routers/webhooks/create-webhook.types";
export type { TDelivery } from "./routers/webhooks/webhooks.types";
export type { TListWebhooksOutput } from "./routers/webhooks/list-webhooks.types";
export type { TRotateWebhookSecretOutput } from "./routers/webhooks/rotate-webhook-secret.types";
export type { TWebhook } from "./routers/webhooks/webhooks.types";
export type { TUpdateListingOutput } from "./routers/owner/update-listing.types";
export type { TVerifyClaimOutput } from "./routers/admin/verify-claim.types";
export type { TAddBusinessOutput } from "./routers/admin/add-business.types";
