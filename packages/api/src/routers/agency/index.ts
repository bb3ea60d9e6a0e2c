import { router } from "../../procedures/trpc-instance";
import { create, createKey, inviteMember, listKeys, overview, removeMember, revokeKey, startCheckout } from "./agency";

/** Agencies: people who manage other businesses' listings (session cookie; tRPC and the pages, not REST). */
export const agencyRouter = router({
  create,
  overview,
  members: router({ invite: inviteMember, remove: removeMember }),
  keys: router({ list: listKeys, create: createKey, revoke: revokeKey }),
  plan: router({ checkout: startCheckout }),
});
