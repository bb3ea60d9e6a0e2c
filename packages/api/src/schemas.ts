/**
 * The procedures' own input schemas, for doors that describe their inputs themselves (the MCP
 * tools): a door takes the rule from here and never restates it.
 */
export { ZAvailableCitiesInput } from "./routers/search/available-cities.types";
export { ZGetListicleInput } from "./routers/search/get-listicle.types";
export { ZSearchCategoryInput } from "./routers/search/search-category.types";
export { ZCategoryLeadersInput } from "./routers/search/category-leaders.types";
export { ZSearchKeywordInput } from "./routers/search/search-keyword.types";
export { ZBySlugInput, ZCompareInput } from "./routers/entities/business-extras.types";
export { ZGetEntityProfileInput } from "./routers/entities/get-entity-profile.types";
export { ZLeadStatusInput, ZSubmitLeadInput } from "./routers/leads/leads.types";
export { ZCitationsInput } from "./routers/owner/owner.types";
