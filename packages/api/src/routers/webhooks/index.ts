import { router } from "../../procedures/trpc-instance";
import { createWebhook } from "./create-webhook";
import { deleteWebhook } from "./delete-webhook";
import { enableWebhook } from "./enable-webhook";
import { getWebhook } from "./get-webhook";
import { listWebhooks } from "./list-webhooks";
import { redeliverWebhook } from "./redeliver-webhook";
import { rotateWebhookSecret } from "./rotate-webhook-secret";
import { sendWebhookTest } from "./send-webhook-test";

/** Webhook registration and management: any API key, each key seeing only its own webhooks. */
export const webhooksRouter = router({
  create: createWebhook,
  list: listWebhooks,
  get: getWebhook,
  rotateSecret: rotateWebhookSecret,
  sendTest: sendWebhookTest,
  enable: enableWebhook,
  redeliver: redeliverWebhook,
  delete: deleteWebhook,
});
