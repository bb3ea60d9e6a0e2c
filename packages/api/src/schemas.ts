/**
 * The procedures' own input schemas, for doors that describe their inputs themselves (the MCP
 * tools): a door takes the rule from here and never restates it.
 */
export { ZAvailableCitiesInput } from "./routers/search/available-cities.types";
export { ZGetListicleInput } from "./routers/search/get-listicle.types";
export { ZSearchCategoryInput } from "./routers/search/search-category.types";
export { ZCategoryLeadersInput } from "./routers/search/category-leaders.types";
export { ZSearchKeywordInput } from "./routers/search/search-keyword.types";
export { ZBySlugInput } from "./routers/entities/entities.types";
export { ZCompareInput } from "./routers/entities/compare.types";
export { ZGetEntityProfileInput } from "./routers/entities/get-entity-profile.types";
export { ZLeadStatusInput } from "./routers/leads/lead-status.types";
export { ZSubmitLeadInput } from "./routers/leads/submit-lead.types";
export { ZCitationsInput } from "./routers/owner/citations.types";
