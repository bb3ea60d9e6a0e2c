import { router } from "../../procedures/trpc-instance";
import { getAgentDiscovery } from "./get-agent-discovery";
import { getAgenticGateway } from "./get-agentic-gateway";

/** Machine-readable discovery for AI agents: the manifest of every door and the per-caller handshake. */
export const agentsRouter = router({ getAgentDiscovery, getAgenticGateway });
