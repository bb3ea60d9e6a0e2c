import { randomUUID } from "node:crypto";
import { publicUrls } from "../shared/public-urls";

/** What a receiver gets: small, no personal data; it fetches the rest from the links. */
export interface WebhookEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The exact bytes sent on every attempt of a delivery (and signed). */
export function eventBody(event: WebhookEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, data: event.data });
}

/** Outbox event ids are stable and unique, so the webhook-id of every delivery of an event is too. */
export function outboxEventId(outboxId: number): string {
  return `evt_${outboxId}`;
}

export interface OutboxEntity {
  outboxId: number;
  eventType: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  business: { id: string; slug: string; name: string };
}

function links(publicBaseUrl: string, business: { id: string; slug: string }) {
  return { entityProfile: publicUrls.entityProfile(publicBaseUrl, business.slug), entity: publicUrls.canonicalEntity(publicBaseUrl, business.id) };
}

/**
 * entity.updated: which entity and which of its properties changed; lead.created: which lead of
 * which business; correction.created: which correction (poll its link) of which property.
 */
export function buildOutboxEvent(publicBaseUrl: string, source: OutboxEntity): WebhookEvent {
  const { business, payload } = source;
  const common = { entityId: business.id, slug: business.slug, name: business.name, links: links(publicBaseUrl, business) };
  const data =
    source.eventType === "lead.created"
      ? { ...common, leadId: payload.leadId }
      : source.eventType === "correction.created"
        ? {
            ...common,
            correctionId: payload.correctionId,
            property: payload.property,
            correction: `${publicBaseUrl}/api/v2/corrections/${String(payload.correctionId)}`,
          }
        : { ...common, change: payload.change, changedProperties: Array.isArray(payload.properties) ? payload.properties : [] };
  return { id: outboxEventId(source.outboxId), type: source.eventType, timestamp: source.createdAt.toISOString(), data };
}

/** The event a key sends itself to check its endpoint: tried once, never retried (a test is not a job to finish). */
export const TEST_EVENT_TYPE = "webhook.test";

export function buildTestEvent(publicBaseUrl: string, webhookId: string): WebhookEvent {
  return {
    id: `evt_test_${randomUUID()}`,
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { webhookId, message: "A test event: your endpoint is reachable and can verify our signatures.", links: { directory: publicBaseUrl } },
  };
}
