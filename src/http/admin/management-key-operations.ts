// The operations of the management API a key with `webhooks:manage` may call (shared decisions §11): the
// webhook-endpoint and delivery operations, for the key's home alone (policies.ts). One list, read by the
// caller hook (every other operation is 403 scope_missing for a key), by the OpenAPI document (which
// marks these operations and gives them the key's security scheme) and so by the reference.
export const MANAGEMENT_KEY_OPERATIONS: ReadonlySet<string> = new Set([
  'createWebhookEndpoint',
  'listWebhookEndpoints',
  'getWebhookEndpoint',
  'getWebhookEndpointHealth',
  'updateWebhookEndpoint',
  'deleteWebhookEndpoint',
  'revealSigningKey',
  'rotateSigningKey',
  'pauseWebhookEndpoint',
  'resumeWebhookEndpoint',
  'pingWebhookEndpoint',
  'recoverWebhookEndpoint',
  'listDeliveries',
  'resendDelivery',
]);

/** What the reference says of each of these operations. */
export const MANAGEMENT_KEY_NOTE =
  'A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.';
