import { createCallerFactory, router } from "../../procedures/trpc-instance";
import { getPartnerFeedChangesText } from "./get-partner-feed-changes";
import { getPartnerFeedText } from "./get-partner-feed";

/**
 * The partner feed's pages as the REST door writes them: the same guards and inputs as
 * appRouter's feed.getPartnerFeed and feed.getPartnerFeedChanges, answering JsonText (the stored
 * documents joined, none parsed or stringified). Not a door of its own: only apps/server's
 * partner-feed adapter calls it, for GET /api/v2/partner-feed and /api/v2/partner-feed/changes.
 */
export const partnerFeedRestBodies = router({ page: getPartnerFeedText, changes: getPartnerFeedChangesText });

export const createPartnerFeedRestCaller = createCallerFactory(partnerFeedRestBodies);
