// The guide service's SDK: a typed v1 client with a management key's operations, and a webhook verifier (README.md).
export { GuideService } from './client.js';
export type {
  CreatedWebhookEndpoint,
  DeliveryAttempt,
  DeliveryListParams,
  EndpointHealth,
  EventListParams,
  EventType,
  FeedEvent,
  Guide,
  GuideListItem,
  GuideListParams,
  GuideServiceOptions,
  Home,
  Key,
  Member,
  MemberListParams,
  NewWebhookEndpoint,
  SigningKey,
  TailPage,
  Team,
  WebhookEndpoint,
  WebhookEndpointChanges,
} from './client.js';
export { GuideServiceError } from './errors.js';
export type { ErrorCode, NoAnswerCode, Problem, ProblemCode, RateLimitState } from './errors.js';
export { Paginated, type Page } from './pagination.js';
export type { RequestOptions } from './requester.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type {
  ServiceSignatureVerification,
  StandardWebhooksVerification,
  WebhookEvent,
  WebhookEventType,
  WebhookHeaders,
  WebhookVerificationOptions,
  WebhookVerificationReason,
} from './webhooks.js';
export type { components, operations, paths, webhooks } from './generated/v1.js';
