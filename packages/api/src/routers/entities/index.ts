import { router } from "../../procedures/trpc-instance";
import { compareBusinesses } from "./compare-businesses";
import { getAgentProfile } from "./get-agent-profile";
import { getBuyerQuestions } from "./get-buyer-questions";
import { getEntityById } from "./get-entity-by-id";
import { getEntityProfile } from "./get-entity-profile";
import { getOffers } from "./get-offers";

/** One business: its entity record (by slug or id), agent profile, buyer questions, offers, and a comparison of two. */
export const entitiesRouter = router({ getEntityProfile, getEntityById, getAgentProfile, getBuyerQuestions, getOffers, compare: compareBusinesses });
