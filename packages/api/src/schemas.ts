/**
 * The procedures' own input and output schemas, for doors that describe their inputs and outputs
 * themselves (the MCP tools, the GraphQL types): a door takes the rule and the shape from here and
 * never restates them. Nothing here may reach drizzle: the stdio MCP server bundles this module.
 */
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
/** The per-address bucket (IPv6: its /64) every per-client cap counts by, for the MCP mount's session caps. */
export { clientBucketOf } from "./services/access/client-ip";
