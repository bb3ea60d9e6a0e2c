import { NEAR_COUNT_AHEAD, NEAR_COUNT_CAP, NEAR_RADIUS_DEFAULT_KM, NEAR_RADIUS_MAX_KM } from "../../services/where-when/where-when-params";

/** What the OpenAPI descriptions of the searches that take openNow, openAt, near and radiusKm say about them, in one place. */
export const WHERE_WHEN_DESCRIPTION =
  "openNow=true or openAt (ISO 8601 with Z or an offset) keeps businesses open at that instant, each in its city's time zone; listings then carry openNow and nextChange, " +
  "totalMatches counts the open ones and excludedUnknownHours the matches left out because their hours are unknown. " +
  `near=<lat>,<lng> searches within radiusKm (default ${NEAR_RADIUS_DEFAULT_KM}, at most ${NEAR_RADIUS_MAX_KM}) of the point, the category then optional; ` +
  `listings carry distanceKm, sort=distance orders nearest first, and totalMatches counts at most ${NEAR_COUNT_AHEAD} past the page's start (${NEAR_COUNT_CAP} in all). Listings carry openingHours whenever hours are known.`;

/** The where-when part of a 400's description. */
export const WHERE_WHEN_400 =
  "openAt not an ISO 8601 date-time with Z or an offset in the years 0001 to 9999, openNow not true or false, near not two decimal degrees in range, " +
  `radiusKm not above 0 and at most ${NEAR_RADIUS_MAX_KM}, or sort=distance or radiusKm without near`;
