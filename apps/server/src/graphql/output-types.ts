import { CLAIM_PROPERTIES, GRAPH_LIMITS, MAX_CLAIMS, MAX_OFFERS, MAX_QUESTIONS, OWNER_TEXT_LIMITS } from "@directory/api";
import {
  LOOKUP_MAX_LIMIT,
  ZAgentProfile,
  ZBuyerQuestionsOutput,
  ZEntityProfile,
  ZKnowledgeGraph,
  ZLookupBusinessesOutput,
  ZOffersOutput,
  ZSearchCategoryInput,
  ZSearchCategoryOutput,
  ZSearchKeywordInput,
  ZSearchKeywordOutput,
} from "@directory/api/schemas";
import { createOutputTypes } from "./zod-to-graphql";

/*
 * The GraphQL types of the procedures' outputs, generated from their zod output schemas. What the
 * door adds is only here: each type's name and description, where a nested object or enum sits
 * ("Type.field"), and how long each list of objects can be (the services' own caps, which the
 * cost analysis in limits.ts multiplies by).
 */

const outputTypes = createOutputTypes({
  types: {
    Entity: {
      description:
        "The full structured entity record (spec 2.5), as GET /api/v2/entity-profile serves it, plus the name, category and city of its identity at the top",
    },
    EntityIdentity: { description: "Who the business is", at: ["Entity.identity"] },
    EntityContact: { description: "How to reach the business", at: ["Entity.contact"] },
    OpeningHours: { description: "Days with their opening and closing times", at: ["EntityContact.openingHours"] },
    EntityAiSignals: { description: "Descriptions and the directory-owned completeness metric (score contract 2.1)", at: ["Entity.aiSignals"] },
    EntityLinks: { description: "Where else this entity is served", at: ["Entity.links"] },
    OperatingStatus: {
      description: "Open, temporarily closed (reopensOn), permanently closed (closedOn), or unverified (since: no status stated and every fact stale)",
      at: ["Entity.operatingStatus", "AgentProfileEntity.operatingStatus"],
    },
    OperatingStatusValue: { description: "Whether the business operates", at: ["OperatingStatus.status"] },
    EntityFreshness: { description: "The newest fact a person vouched for, and how many current facts are stale", at: ["Entity.freshness"] },
    Claim: { description: "A provenance-tracked fact (spec 2.4); superseded claims appear only in history mode", at: ["Entity.claims"] },
    BusinessRef: { description: "The business an answer is about", at: ["BuyerQuestions.business", "Offers.business"] },
    BuyerQuestions: { description: "Owner-submitted questions plus the category's templates (get_buyer_questions)" },
    BuyerQuestion: { description: "A question buyers ask, with the business's answer when it gave one", at: ["BuyerQuestions.questions"] },
    Offers: { description: "A business's published commerce offers (get_offers)" },
    Offer: { description: "A published product or service with its price", at: ["Offers.offers"] },
    AgentProfile: { description: "The agent-readable profile, schema ABO/1.0 (spec 2.3; /business/{slug}/agent.json)" },
    AgentProfileEntity: { description: "The business as an agent sees it", at: ["AgentProfile.entity"] },
    AgentProfileContact: { description: "Contact details", at: ["AgentProfile.contact"] },
    AgentAction: { description: "An executable action", at: ["AgentProfile.actions"] },
    AgentIntent: { description: "A prepared question and answer", at: ["AgentProfile.intents"] },
    Neighbour: { description: "A business co-mentioned with this one (GET /api/v2/knowledge-graph?type=network)" },
    GraphBusiness: { description: "A business in the knowledge graph", at: ["Neighbour.business"] },
    SupportingDocument: { description: "A document naming both businesses of an edge", at: ["Neighbour.documents"] },
    BusinessLookup: { description: "One category in one city (GET /api/v2/businesses)" },
    RankedListings: { description: "A category, in one city or across all, ranked by plan tier then internal score, or by rating (search_businesses)" },
    KeywordResults: { description: "Free-text search results (search_by_keyword)" },
    Listing: {
      description: "A business listing (spec 2.1 under score contract 2.1-phase0: no internal scores)",
      at: ["BusinessLookup.businesses", "RankedListings.businesses"],
    },
    KeywordListing: { description: "A listing found by keyword, with how it matched", at: ["KeywordResults.businesses"] },
    ResolvedCategory: {
      description: "The category the query resolved to",
      at: ["BusinessLookup.category", "RankedListings.category", "KeywordResults.category"],
    },
    ResolvedCity: {
      description: "The city the query resolved to (aliases and accents are accepted)",
      at: ["BusinessLookup.city", "RankedListings.city", "KeywordResults.city"],
    },
    PlanTier: { description: "Paid tiers rank first; disclosed, never hidden", at: ["EntityIdentity.planTier", "Listing.planTier", "KeywordListing.planTier"] },
    Ownership: {
      description: "Owner-verified, or unclaimed and registry-sourced",
      at: ["EntityIdentity.ownership", "Listing.ownership", "KeywordListing.ownership"],
    },
    ClaimVerification: { description: "How a claim was verified", at: ["Claim.verification"] },
    DataAttribution: {
      description: "A licence notice owed for the facts shown (e.g. OpenStreetMap's ODbL line)",
      at: ["Entity.attributions", "AgentProfile.attributions", "BusinessLookup.attributions", "RankedListings.attributions", "KeywordResults.attributions"],
    },
    MatchedBy: { description: "How a keyword search hit matched", at: ["KeywordListing.matchedBy"] },
    NextChange: {
      description: "When a listing next opens or closes after the instant its search named",
      at: ["Listing.nextChange", "KeywordListing.nextChange"],
    },
    OpeningChange: { description: "opens or closes", at: ["NextChange.change"] },
    ListingClosure: {
      description: "A listing closed for now (temporarily_closed), with its reopening date when known",
      at: ["Listing.operatingStatus", "KeywordListing.operatingStatus"],
    },
    KeywordMatch: { description: "How a keyword search found its results, once per response", at: ["KeywordResults.matchedBy"] },
    SpellingCorrection: { description: "A misspelt word and what it was read as", at: ["KeywordResults.corrections"] },
    ActionType: { description: "What an agent-profile action does", at: ["AgentAction.type"] },
    QuestionSource: {
      description: "owner: submitted by the business; category_template: asked of every business in the category",
      at: ["BuyerQuestion.source"],
    },
    DocumentKind: { description: "An AI platform's answer, or an article", at: ["SupportingDocument.kind"] },
  },
  listBounds: {
    // One current claim per property (a unique index); history mode lists every claim, up to the service's cap.
    "Entity.claims": ({ history }) => (history === true ? MAX_CLAIMS : CLAIM_PROPERTIES.length),
    "Entity.attributions": () => 5,
    "AgentProfile.attributions": () => 5,
    "BusinessLookup.attributions": () => 5,
    "RankedListings.attributions": () => 5,
    "KeywordResults.attributions": () => 5,
    "EntityContact.openingHours": OWNER_TEXT_LIMITS.listItems,
    "BuyerQuestions.questions": MAX_QUESTIONS,
    "Offers.offers": MAX_OFFERS,
    // The agent profile builds a fixed handful of actions and intents; these are generous bounds, not caps.
    "AgentProfile.actions": 10,
    "AgentProfile.intents": 20,
    "Neighbour.documents": GRAPH_LIMITS.documentsPerEdge,
    "BusinessLookup.businesses": LOOKUP_MAX_LIMIT,
    "RankedListings.businesses": ZSearchCategoryInput.shape.limit.unwrap().maxValue!,
    "KeywordResults.businesses": ZSearchKeywordInput.shape.limit.unwrap().maxValue!,
    // A query is at most 200 characters, so at most 100 words of one letter and a space.
    "KeywordResults.corrections": ZSearchKeywordInput.shape.query.maxLength! / 2,
  },
});

/** The network's neighbour entry, as GET /api/v2/knowledge-graph?type=network lists it. */
function networkNeighbour() {
  for (const option of ZKnowledgeGraph.options) if ("neighbours" in option.shape) return option.shape.neighbours.element;
  throw new Error("the knowledge graph output has no network shape");
}

export const { objectType, unusedPaths } = outputTypes;

/** How many neighbours one entity lists: the knowledge graph's own cap. */
export const NEIGHBOURS_BOUND = GRAPH_LIMITS.neighbours;

export const Neighbour = objectType("Neighbour", networkNeighbour());
export const Offers = objectType("Offers", ZOffersOutput);
export const BuyerQuestions = objectType("BuyerQuestions", ZBuyerQuestionsOutput);
export const AgentProfile = objectType("AgentProfile", ZAgentProfile);
export const BusinessLookup = objectType("BusinessLookup", ZLookupBusinessesOutput);
export const RankedListings = objectType("RankedListings", ZSearchCategoryOutput);
export const KeywordResults = objectType("KeywordResults", ZSearchKeywordOutput);
/** The entity profile's own type; schema.ts builds Entity from it with the door's extra fields. */
export { ZEntityProfile };

/** The search procedures' `sort` values, for the GraphQL arguments that pass them on. */
export const ZCategorySortInput = ZSearchCategoryInput.shape.sort.unwrap();
export const ZKeywordSortInput = ZSearchKeywordInput.shape.sort.unwrap();
