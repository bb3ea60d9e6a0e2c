import { router } from "../../procedures/trpc-instance";
import {
  createKey,
  grantAgency,
  inviteOwner,
  listAgencies,
  listKeys,
  listLeads,
  listOwners,
  listWebhooks,
  overview,
  removeOwner,
  revokeKey,
  withdrawAgency,
} from "./dashboard";
import { getMyCitations } from "./get-my-citations";
import { getMyCorrections } from "./get-my-corrections";
import { updateListing } from "./update-listing";
import { getMyVisibilityScore } from "./get-my-visibility-score";
import { requestCitationRecheck } from "./request-citation-recheck";

/**
 * Owner self-service, for two callers: a business key (always its own business, so no other can be
 * named) and a signed-in owner or agency member naming one of their businesses by slug (the dashboard).
 */
export const ownerRouter = router({
  visibility: getMyVisibilityScore,
  citations: getMyCitations,
  requestCitationRecheck,
  updateListing,
  corrections: getMyCorrections,
  overview,
  leads: router({ list: listLeads }),
  keys: router({ list: listKeys, create: createKey, revoke: revokeKey }),
  webhooks: router({ list: listWebhooks }),
  coOwners: router({ list: listOwners, invite: inviteOwner, remove: removeOwner }),
  agencies: router({ list: listAgencies, grant: grantAgency, withdraw: withdrawAgency }),
});
