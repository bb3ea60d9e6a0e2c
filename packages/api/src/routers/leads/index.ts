import { router } from "../../procedures/trpc-instance";
import { getLeadStatus } from "./get-lead-status";
import { submitLead } from "./submit-lead";
import { transitionLead } from "./transition-lead";

/** Leads: an agent submits one with the user's consent, checks its status; the business moves it on. */
export const leadsRouter = router({ submit: submitLead, status: getLeadStatus, transition: transitionLead });
