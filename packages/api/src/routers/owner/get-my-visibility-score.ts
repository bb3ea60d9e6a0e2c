import { ownVisibility } from "../../services/owner/owner-insights";
import { businessProcedure } from "../../procedures/builders";
import { CITATION_METHOD } from "../../services/citations/method";
import { citationEnginesStatus } from "../../services/citations/owner-recheck";
import { ZManagedBusinessInput } from "./owner-listing.types";
import { getMyVisibilityScoreMeta, ZVisibilityOutput } from "./get-my-visibility-score.types";

/** The key's own business: its internal scores and citation rate, shown to no one else. */
export const getMyVisibilityScore = businessProcedure
  .meta(getMyVisibilityScoreMeta)
  .input(ZManagedBusinessInput)
  .output(ZVisibilityOutput)
  .query(async ({ ctx }) => ({
    ...(await ownVisibility(ctx.db, ctx.business.id)),
    engines: citationEnginesStatus(ctx.citationEngines),
    method: CITATION_METHOD,
  }));
