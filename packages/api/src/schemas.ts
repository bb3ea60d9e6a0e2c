/**
 * The procedures' own input schemas, for doors that describe their inputs themselves (the MCP
 * tools): a door takes the rule from here and never restates it.
 */
export { ZAvailableCitiesInput } from "./routers/discovery/available-cities.types";
export { ZGetListicleInput } from "./routers/discovery/get-listicle.types";
export { ZCategoryLeadersInput, ZSearchCategoryInput } from "./routers/discovery/search-category.types";
export { ZSearchKeywordInput } from "./routers/discovery/search-keyword.types";
export { ZBySlugInput, ZCompareInput } from "./routers/entities/business-extras.types";
export { ZGetEntityProfileInput } from "./routers/entities/get-entity-profile.types";
export { ZLeadStatusInput, ZSubmitLeadInput } from "./routers/leads/leads.types";
export { ZCitationsInput } from "./routers/owner/owner.types";
