import { exampleOwnBusiness, exampleUnclaimedBusiness } from "./openapi-examples";
import { keyed, type Run } from "./openapi-examples-record";
import type { TCreateWebhookOutput, TDelivery, TSubmitCorrectionOutput, TSubmitLeadOutput } from "@directory/api/schemas";
import type { TestServer } from "./testing";

/** The writes' examples and the reads of what they made: leads, corrections, webhooks, owner and admin edits. */

const WEBHOOK_URL = "https://93.184.215.14/hooks/directory";

/** A lead and two corrections of the business the example business key owns, and that key's own reads. */
export async function recordCorrectionsAndLeads(run: Run, server: TestServer): Promise<void> {
  // The lead goes to the business the example business key owns, so that key can move it on.
  const own = await exampleOwnBusiness(server.database);
  const lead = await run<TSubmitLeadOutput>({
    operationId: "submitLead",
    summary: `A lead to ${own}, with the user's consent`,
    request: {
      method: "POST",
      path: "/api/v2/leads",
      body: {
        slug: own,
        contactName: "Asha Rao",
        contactEmail: "asha.rao@example.com",
        message: "Could I book a check-up next week?",
        idempotencyKey: "example-lead-0001",
        consent: { userAgreedToBeContacted: true, statementShownToUser: `May ${own} contact you about your request?` },
      },
    },
  });
  await run({
    operationId: "getLeadStatus",
    summary: "The status of that lead",
    request: { method: "GET", path: "/api/v2/lead-status", query: { leadId: String(lead.leadId) } },
  });
  await run({
    operationId: "transitionLead",
    summary: "The business marks the lead contacted",
    request: { method: "POST", path: "/api/v2/owner/leads/transition", headers: keyed("business"), body: { leadId: String(lead.leadId), status: "contacted" } },
  });
  // Two corrections of the example business's phone: one accepted, one rejected.
  const correction = (phone: string) => ({
    method: "POST" as const,
    path: "/api/v2/corrections",
    body: { slug: own, property: "phone", value: phone, evidence: "The number on the shop's door, seen today" },
  });
  const proposed = await run<TSubmitCorrectionOutput>({
    operationId: "submitCorrection",
    summary: `A correction of ${own}'s phone, with its evidence`,
    request: correction("+91 22 4000 9876"),
  });
  const correctionId = (body: TSubmitCorrectionOutput) => ({ id: String(body.correctionId) });
  await run({
    operationId: "getCorrectionStatus",
    summary: "The public status of that correction",
    request: { method: "GET", path: "/api/v2/corrections/{id}", pathParams: correctionId(proposed) },
  });
  await run({
    operationId: "getMyCorrections",
    summary: "The corrections proposed on the key's own listing",
    request: { method: "GET", path: "/api/v2/owner/corrections", headers: keyed("business") },
  });
  await run({
    operationId: "listCorrections",
    summary: "The corrections waiting for a decision",
    request: { method: "GET", path: "/api/v2/admin/corrections", headers: keyed("admin") },
  });
  await run({
    operationId: "rejectCorrection",
    summary: "An admin rejects the second proposal",
    // prepareExample proposes the phone this rejects (one submitCorrection example, two decisions).
    request: { method: "POST", path: "/api/v2/admin/corrections/{id}/reject", headers: keyed("admin"), pathParams: { id: "" } },
  });
  await run({
    operationId: "acceptCorrection",
    summary: "An admin accepts the first: its phone becomes the current claim",
    request: { method: "POST", path: "/api/v2/admin/corrections/{id}/accept", headers: keyed("admin"), pathParams: correctionId(proposed) },
  });
  await run({
    operationId: "getMyVisibilityScore",
    summary: "The business's own scores",
    request: { method: "GET", path: "/api/v2/owner/visibility", headers: keyed("business") },
  });
  await run({
    operationId: "getMyCitations",
    summary: "The business's two latest AI-platform checks",
    request: { method: "GET", path: "/api/v2/owner/citations", query: { limit: "2" }, headers: keyed("business") },
  });
  await run({
    operationId: "requestCitationRecheck",
    summary: "The business asks for today's recheck of its category and city",
    request: { method: "POST", path: "/api/v2/owner/citations/recheck", headers: keyed("business"), body: {} },
  });
}

/** Agent discovery and a developer key's webhook, from registration to deletion. */
export async function recordAgentsAndWebhooks(run: Run): Promise<void> {
  await run({ operationId: "getAgentDiscovery", summary: "The discovery manifest", request: { method: "GET", path: "/api/agent-discovery" } });
  await run({
    operationId: "getAgenticGateway",
    summary: "The handshake of an agent with a developer key",
    request: { method: "GET", path: "/api/agentic-gateway", query: { agent: "acme-assistant/2.1" }, headers: keyed("developer") },
  });

  const webhooks = { method: "POST", path: "/api/developers/webhooks", headers: keyed("developer") } as const;
  const created = await run<TCreateWebhookOutput>({
    operationId: "createWebhook",
    summary: "Register a webhook for entity.updated",
    request: { ...webhooks, body: { url: WEBHOOK_URL, events: ["entity.updated"] } },
  });
  const id = { id: String(created.id) };
  await run({ operationId: "listWebhooks", summary: "This key's webhooks", request: { ...webhooks, method: "GET" } });
  const delivery = await run<TDelivery>({
    operationId: "sendWebhookTest",
    summary: "Queue a test event",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/test", pathParams: id },
  });
  await run({
    operationId: "getWebhook",
    summary: "The webhook with its deliveries",
    request: { ...webhooks, method: "GET", path: "/api/developers/webhooks/{id}", pathParams: id },
  });
  await run({
    operationId: "rotateWebhookSecret",
    summary: "A new signing secret",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/rotate-secret", pathParams: id },
  });
  await run({
    operationId: "redeliverWebhook",
    summary: "Send a failed delivery again",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/deliveries/{deliveryId}/retry", pathParams: { ...id, deliveryId: String(delivery.id) } },
  });
  await run({
    operationId: "enableWebhook",
    summary: "Enable the webhook again",
    request: { ...webhooks, path: "/api/developers/webhooks/{id}/enable", pathParams: id },
  });
  await run({
    operationId: "deleteWebhook",
    summary: "Delete the webhook",
    request: { ...webhooks, method: "DELETE", path: "/api/developers/webhooks/{id}", pathParams: id },
  });
}

/** The owner's edit and the admin's verifications and new business. */
export async function recordOwnerAndAdminWrites(run: Run, server: TestServer, firstSlug: string): Promise<void> {
  await run({
    operationId: "updateListing",
    summary: "The owner corrects its phone and tagline with its business key",
    request: {
      method: "PATCH",
      path: "/api/v2/owner/listing",
      headers: keyed("business"),
      body: { phone: "+91 22 4000 1234", tagline: "Open on Sundays" },
    },
  });
  await run({
    operationId: "verifyClaim",
    summary: `An admin verifies the phone of ${firstSlug}`,
    request: { method: "POST", path: "/api/v2/admin/claims/verify", headers: keyed("admin"), body: { slug: firstSlug, property: "phone" } },
  });
  const unclaimed = await exampleUnclaimedBusiness(server.database);
  await run({
    operationId: "verifyOwner",
    summary: `An admin verifies the owner of ${unclaimed}`,
    request: { method: "POST", path: "/api/v2/admin/businesses/verify-owner", headers: keyed("admin"), body: { slug: unclaimed } },
  });
  await run({
    operationId: "unverifyOwner",
    summary: `An admin withdraws the owner verification of ${unclaimed} again (it leaves the partner feed: a remove no_longer_verified)`,
    request: { method: "POST", path: "/api/v2/admin/businesses/unverify-owner", headers: keyed("admin"), body: { slug: unclaimed } },
  });
  await run({
    operationId: "addBusiness",
    summary: "An admin adds a business",
    request: {
      method: "POST",
      path: "/api/v2/admin/businesses",
      headers: keyed("admin"),
      body: { name: "Harbour Light Dental", category: "dentist", city: "mumbai-in", phone: "+91 22 4000 5678", website: "https://harbour-light.example" },
    },
  });
}
