// Generated from the service's OpenAPI document (GET /admin/v1/openapi.json) by openapi-typescript.
// Do not edit: run `npm run generate` in sdk/ after changing one of its schemas.

export interface paths {
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the webhook endpoints of a team or organization
         * @description Oldest first.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers an endpoint for a team or an organization; a ping is sent to it. The answer carries the signing key in both forms, `signing_key` for `X-Service-Signature` and `standard_webhooks_secret` for `webhook-signature`: no read of the endpoint shows them again (the signing-key operation does). The ping is written with the endpoint and may reach the receiver before this answer reaches the caller: a receiver that cannot verify it yet and refuses it gets it again at the first retry, signed with the same key.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description Its URL, events, status and why it is paused; the signing key has an operation of its own.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Nothing more is sent to it.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Its URL, events or description; a new URL is checked like a new endpoint's.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint's health
         * @description How the endpoint has been doing: its last sent attempt, the attempts delivered and failed in the current hour and the 23 before it (in total and hour by hour), how many of the events they carried were delivered (the success rate counts events: one retried and then delivered is a success), its failures since the last delivery, and when its next automatic retry is due. Why it is paused is on the endpoint.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        get: operations["getWebhookEndpointHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/signing-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal the signing key
         * @description The key that signs deliveries to this endpoint, and the same key as Standard Webhooks libraries take it.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        get: operations["revealSigningKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/signing-key/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing key
         * @description Replaces the signing key. With `keep_old_for_hours` (0–72; the body may be left out) the replaced key keeps signing for that long: `X-Service-Signature` with the old key, `webhook-signature` with both, so receivers can move to the new key without a failed delivery; at the end the new key signs both. With 0 the old key stops at once, and deliveries that fail during the switch are retried. Rotating again during an overlap keeps only the key it replaces.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["rotateSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a webhook endpoint
         * @description Pauses an endpoint by hand (`paused_reason` `manual`): nothing is sent to it, and its waiting and new deliveries are kept as missed until it is resumed. Pausing a paused endpoint changes nothing.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["pauseWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused webhook endpoint
         * @description Makes a paused endpoint active; with `redeliver_missed` true every missed delivery is sent again, oldest first. The body may be left out: the endpoint is resumed without sending what it missed (recover sends it later, if wanted).
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["resumeWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again what failed since a time
         * @description Sends again, oldest first, through the endpoint's queue, every event to the endpoint created since `since` whose latest attempt failed or was missed and that has no attempt still to come: one new attempt each, as a resend (no automatic retries of its own). 409 while the endpoint is paused; 400 for a `since` older than the attempts' retention (WEBHOOK_ATTEMPTS_RETENTION_DAYS) or in the future.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["recoverWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping or a test event
         * @description Sends a `ping` event to this endpoint alone, whatever events it picked; with `event_type`, a test event of that type instead (the body may be left out). While the endpoint is paused it is kept as missed, like any event, and sent if the endpoint is resumed with `redeliver_missed`.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["pingWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description Every attempt to the endpoint, newest first, in keyset pages like GET /v1/guides. `status`, `event_type` and `event_id` filter; `since` and `until` keep the attempts written in that time range (`since` included, `until` not). A cursor is only good for the filters it was given with.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Sends the attempt's event to its endpoint again as a new attempt (a new delivery id). 409 while the endpoint is paused.
         *
         *     A management key (an API key with `webhooks:manage`) may call this operation for its own home: a team key for its team, an organization key for the organization and its teams.
         */
        post: operations["resendDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Problem */
        Problem: {
            /**
             * Format: uri
             * @description Link to the error's entry in the API reference
             */
            type: string;
            title: string;
            /** @description The HTTP status */
            status: number;
            /** @description What is wrong; for invalid_request it names the parameter */
            detail: string;
            /**
             * @description Stable; clients switch on it
             * @enum {string}
             */
            code: "invalid_key" | "key_expired" | "scope_missing" | "api_disabled" | "team_keys_disabled" | "rate_limited" | "too_many_waits" | "invalid_request" | "cursor_expired" | "not_found" | "method_not_allowed" | "forbidden" | "conflict" | "idempotency_key_in_use" | "idempotency_key_reused" | "limit_reached" | "payload_too_large" | "unsupported_media_type" | "expectation_failed" | "request_timeout" | "headers_too_large" | "internal_error" | "service_unavailable" | "bad_gateway" | "gateway_timeout";
            /** @description Quote it to support */
            request_id: string;
        };
        /**
         * @description A member's role in a team
         * @enum {string}
         */
        TeamRole: "EDITOR" | "VIEWER" | "ADMIN";
        Member: {
            /** Format: uuid */
            id: string;
            name: string | null;
            email: string;
            avatar_url: string | null;
            role: components["schemas"]["TeamRole"];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            joined_at: string | null;
        };
        AdminOrganization: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            plan: "free" | "starter" | "growth" | "enterprise";
            api_enabled: boolean;
            org_keys_only: boolean;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updated_at: string;
        };
        AdminOrganizationAdmin: {
            /** Format: uuid */
            id: string;
            email: string;
            name: string | null;
            avatar_url: string | null;
            /**
             * Format: date-time
             * @description When they became an admin of the organization
             * @example 2026-11-21T09:30:00.000Z
             */
            admin_since: string;
        };
        AdminTeam: {
            /** Format: uuid */
            id: string;
            name: string | null;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The plan that rules the team: its organization's, or its own
             * @enum {string}
             */
            plan: "free" | "starter" | "growth" | "enterprise";
            brand_color: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updated_at: string;
        };
        AdminUser: {
            /** Format: uuid */
            id: string;
            email: string;
            name: string | null;
            avatar_url: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
        };
        AdminGuide: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            team_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updated_at: string | null;
            title: string | null;
            description: string | null;
            owner_name: string | null;
            icon_url: string | null;
            permalink: string | null;
            /** @enum {string|null} */
            publish_status: "DRAFT" | "PUBLISHED" | null;
            /** @description True when the guide is past the plan's guide limit */
            locked: boolean;
            /**
             * @description BCP 47 tag
             * @example en
             * @example pt-BR
             */
            language: string;
            /** @enum {string} */
            text_direction: "rtl" | "ltr";
            app_version: string | null;
            thumbnail_url: string | null;
            tags: string[] | null;
            folder_id: string | null;
            /** @description Readable by anyone with the share link */
            is_public: boolean;
            /** @description The application's markdown export; a preview or short cut closes with the notice */
            markdown_body: string;
            brand_color: string | null;
            /** @description Null when the plan includes full guides through the API */
            notice: string | null;
            /** Format: uuid */
            owner_id: string | null;
            /** @enum {string|null} */
            team_role: "EDITOR" | "VIEWER" | "ADMIN" | null;
            steps: {
                text: string;
                image_url: string | null;
                image_alt: string | null;
            }[];
            /** @enum {string} */
            processing_state: "processing" | "finished" | "failed";
            processing_error: string | null;
        };
        AdminGuideSummary: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            team_id: string;
            title: string | null;
            description: string | null;
            permalink: string;
            /** @enum {string} */
            publish_status: "DRAFT" | "PUBLISHED";
            /** @description Whether the share link works */
            is_public: boolean;
            /** @enum {string} */
            processing_state: "processing" | "finished" | "failed";
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updated_at: string;
        };
        AdminApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            home: {
                /** @enum {string} */
                type: "team" | "organization";
                /** Format: uuid */
                id: string;
            };
            scopes: ("guides:read" | "teams:read" | "members:read" | "webhooks:manage")[];
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the key was last used, to the minute
             * @example 2026-11-21T09:30:00.000Z
             */
            last_used_at: string | null;
            /** @description The start of the key, to tell keys apart */
            secret_hint: string;
        };
        AdminWebhookEndpoint: {
            /** Format: uuid */
            id: string;
            home: {
                /** @enum {string} */
                type: "team" | "organization";
                /** Format: uuid */
                id: string;
            };
            url: string;
            events: ("guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed")[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "paused";
            /**
             * @description `gone`: the receiver answered 410; `failing`: nothing but failures for WEBHOOK_PAUSE_AFTER_MS; `manual`: an admin paused it
             * @enum {string|null}
             */
            paused_reason: "gone" | "failing" | "manual" | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            paused_at: string | null;
            /**
             * Format: date-time
             * @description While a rotation's overlap runs, when the replaced signing key stops signing; null otherwise
             * @example 2026-11-21T09:30:00.000Z
             */
            old_signing_key_ends_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            updated_at: string;
        };
        AdminEndpointHealth: {
            /** Format: uuid */
            endpoint_id: string;
            /** @description The newest attempt that was sent; null before the first */
            last_attempt: {
                /** @enum {string} */
                status: "delivered" | "failed";
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                sent_at: string;
            } | null;
            /**
             * Format: date-time
             * @description The start of the window: the current hour (UTC) and the 23 before it
             * @example 2026-11-21T09:30:00.000Z
             */
            since: string;
            /** @description Attempts sent since `since` that were delivered */
            delivered: number;
            /** @description Attempts sent since `since` that failed */
            failed: number;
            /** @description Events with an attempt sent since `since` (an event retried three times counts once) */
            events_sent: number;
            /** @description Of those events, the ones an attempt sent since `since` delivered */
            events_delivered: number;
            /** @description events_delivered / events_sent: a retried event that was delivered in the end is a success; null when nothing was sent in the window */
            success_rate: number | null;
            /** @description Failed attempts since the last delivered one */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description When the earliest automatic retry still waiting is due; null when none waits
             * @example 2026-11-21T09:30:00.000Z
             */
            next_retry_at: string | null;
            /** @description The window hour by hour, oldest first */
            hours: {
                /**
                 * Format: date-time
                 * @description The start of the hour (UTC)
                 * @example 2026-11-21T09:30:00.000Z
                 */
                start: string;
                /** @description Attempts sent in this hour that were delivered */
                delivered: number;
                /** @description Attempts sent in this hour that failed */
                failed: number;
            }[];
        };
        AdminDeliveryAttempt: {
            /**
             * Format: uuid
             * @description The delivery id: X-Service-Delivery of this attempt
             */
            id: string;
            /** Format: uuid */
            endpoint_id: string;
            /** Format: uuid */
            event_id: string;
            /** @enum {string} */
            event_type: "guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed" | "ping";
            attempt_number: number;
            /**
             * @description `cancelled`: never sent, because another attempt of its event to this endpoint was delivered first (a delivered event is settled)
             * @enum {string}
             */
            status: "scheduled" | "sending" | "delivered" | "failed" | "missed" | "cancelled";
            /** @description Null until the attempt is sent */
            request_headers: {
                [key: string]: string;
            } | null;
            /** @description The exact body bytes, the same for every attempt of the event */
            request_body: string;
            response_status: number | null;
            /** @description The first 4 KiB of the answer */
            response_body: string | null;
            error: string | null;
            duration_ms: number | null;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            sent_at: string | null;
            /**
             * Format: date-time
             * @description When the attempt is (or was) due to be sent
             * @example 2026-11-21T09:30:00.000Z
             */
            due_at: string;
            /**
             * Format: date-time
             * @description When the retry that follows this failed attempt is due
             * @example 2026-11-21T09:30:00.000Z
             */
            next_attempt_at: string | null;
            /** @description Its event is a test (a ping, or a test event of another type), sent with `X-Service-Test: true` */
            test: boolean;
        };
        AdminMail: {
            /** Format: uuid */
            id: string;
            to: string[];
            subject: string;
            text: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When SMTP took it; null without SMTP_URL
             * @example 2026-11-21T09:30:00.000Z
             */
            sent_at: string | null;
        };
        AdminAuditEvent: {
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When it happened
             * @example 2026-11-21T09:30:00.000Z
             */
            at: string;
            actor: {
                /**
                 * @description A person signed in to the console, the operator with the admin token, or a management key (webhooks:manage)
                 * @enum {string}
                 */
                type: "person" | "operator" | "api_key";
                /**
                 * Format: uuid
                 * @description The person's user id, or the key's id; null for the operator
                 */
                id: string | null;
                /** @description The person's name (or e-mail address), or the key's name, as it is now; null for the operator, or a person erased since */
                name: string | null;
            };
            /** @enum {string} */
            action: "organization.created" | "organization.updated" | "admin.added" | "admin.removed" | "team.created" | "team.updated" | "member.added" | "member.role_changed" | "member.removed" | "user.created" | "user.erased" | "api_key.created" | "api_key.revoked" | "webhook_endpoint.created" | "webhook_endpoint.updated" | "webhook_endpoint.paused" | "webhook_endpoint.resumed" | "webhook_endpoint.deleted" | "webhook_endpoint.pinged" | "webhook_endpoint.signing_key_revealed" | "webhook_endpoint.signing_key_rotated" | "webhook_endpoint.recovered" | "delivery.resent" | "guide.created" | "guide.updated" | "guide.processing_settled" | "guide.moved" | "guide.deleted" | "session.signed_in";
            target: {
                /** @enum {string} */
                type: "organization" | "team" | "user" | "api_key" | "webhook_endpoint" | "delivery" | "guide" | "session";
                /**
                 * Format: uuid
                 * @description null for a sign-in
                 */
                id: string | null;
                /** @description What the target is called now (a key's or team's name, an endpoint's URL without its query, a guide's title, a person's name); null once it is gone */
                name: string | null;
            };
            home: {
                /** @enum {string} */
                type: "team" | "organization";
                /** Format: uuid */
                id: string;
            } | null;
            /** @description The client address the request came from */
            address: string | null;
            /** @description The request's X-Request-Id */
            request_id: string | null;
            /** @description For a change, the names of the fields it set (never their values) */
            changed: string[] | null;
            /** @description How many things it covered: for `webhook_endpoint.recovered`, the events sent again; null for other actions */
            count: number | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listWebhookEndpoints: {
        parameters: {
            query: {
                home_type: "team" | "organization";
                home_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *           "home": {
                     *             "type": "team",
                     *             "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *           },
                     *           "url": "http://127.0.0.1:37859/hook",
                     *           "events": [
                     *             "guide.created",
                     *             "guide.deleted"
                     *           ],
                     *           "description": "Help center",
                     *           "status": "active",
                     *           "paused_reason": null,
                     *           "paused_at": null,
                     *           "old_signing_key_ends_at": null,
                     *           "created_at": "2026-11-29T09:05:49.472Z",
                     *           "updated_at": "2026-11-29T09:05:49.472Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminWebhookEndpoint"][];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    home: {
                        /** @enum {string} */
                        type: "team" | "organization";
                        /** Format: uuid */
                        id: string;
                    };
                    /** Format: uri */
                    url: string;
                    /** @description The events the endpoint receives; ping goes to every endpoint */
                    events: ("guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed")[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The endpoint, with its signing key */
            201: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "home": {
                     *           "type": "team",
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *         },
                     *         "url": "http://127.0.0.1:37859/hook",
                     *         "events": [
                     *           "guide.created",
                     *           "guide.deleted"
                     *         ],
                     *         "description": "Help center",
                     *         "status": "active",
                     *         "paused_reason": null,
                     *         "paused_at": null,
                     *         "old_signing_key_ends_at": null,
                     *         "created_at": "2026-11-29T09:05:49.472Z",
                     *         "updated_at": "2026-11-29T09:05:49.472Z",
                     *         "signing_key": "whsec_…",
                     *         "standard_webhooks_secret": "whsec_…"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description The new endpoint, with its signing key in both forms: shown here, and by the signing-key operation, never by a read of the endpoint */
                        data: {
                            /** Format: uuid */
                            id: string;
                            home: {
                                /** @enum {string} */
                                type: "team" | "organization";
                                /** Format: uuid */
                                id: string;
                            };
                            url: string;
                            events: ("guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed")[];
                            description: string | null;
                            /** @enum {string} */
                            status: "active" | "paused";
                            /**
                             * @description `gone`: the receiver answered 410; `failing`: nothing but failures for WEBHOOK_PAUSE_AFTER_MS; `manual`: an admin paused it
                             * @enum {string|null}
                             */
                            paused_reason: "gone" | "failing" | "manual" | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T09:30:00.000Z
                             */
                            paused_at: string | null;
                            /**
                             * Format: date-time
                             * @description While a rotation's overlap runs, when the replaced signing key stops signing; null otherwise
                             * @example 2026-11-21T09:30:00.000Z
                             */
                            old_signing_key_ends_at: string | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T09:30:00.000Z
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-21T09:30:00.000Z
                             */
                            updated_at: string;
                            /** @description For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form */
                            signing_key: string;
                            /** @description For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key's UTF-8 bytes); `new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp` */
                            standard_webhooks_secret: string;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "home": {
                     *           "type": "team",
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *         },
                     *         "url": "http://127.0.0.1:37859/hook",
                     *         "events": [
                     *           "guide.created",
                     *           "guide.deleted"
                     *         ],
                     *         "description": "Help center",
                     *         "status": "active",
                     *         "paused_reason": null,
                     *         "paused_at": null,
                     *         "old_signing_key_ends_at": null,
                     *         "created_at": "2026-11-29T09:05:49.472Z",
                     *         "updated_at": "2026-11-29T09:05:49.472Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminWebhookEndpoint"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url?: string;
                    /** @description The events the endpoint receives; ping goes to every endpoint */
                    events?: ("guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed")[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "home": {
                     *           "type": "team",
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *         },
                     *         "url": "http://127.0.0.1:37859/hook",
                     *         "events": [
                     *           "guide.created"
                     *         ],
                     *         "description": "Help center",
                     *         "status": "active",
                     *         "paused_reason": null,
                     *         "paused_at": null,
                     *         "old_signing_key_ends_at": null,
                     *         "created_at": "2026-11-29T09:05:49.472Z",
                     *         "updated_at": "2026-11-29T09:05:49.528Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminWebhookEndpoint"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpointHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint's health */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "endpoint_id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "last_attempt": {
                     *           "status": "delivered",
                     *           "sent_at": "2026-11-29T09:05:49.555Z"
                     *         },
                     *         "since": "2026-11-28T10:00:00.000Z",
                     *         "delivered": 2,
                     *         "failed": 0,
                     *         "events_sent": 2,
                     *         "events_delivered": 2,
                     *         "success_rate": 1,
                     *         "consecutive_failures": 0,
                     *         "next_retry_at": null,
                     *         "hours": [
                     *           {
                     *             "start": "2026-11-28T10:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T11:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T12:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T13:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T14:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T15:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T16:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T17:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T18:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T19:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T20:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T21:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T22:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-28T23:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T00:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T01:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T02:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T03:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T04:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T05:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T06:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T07:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T08:00:00.000Z",
                     *             "delivered": 0,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "start": "2026-11-29T09:00:00.000Z",
                     *             "delivered": 2,
                     *             "failed": 0
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminEndpointHealth"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revealSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signing key */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "signing_key": "whsec_…",
                     *         "standard_webhooks_secret": "whsec_…",
                     *         "old_key": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form */
                            signing_key: string;
                            /** @description For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key's UTF-8 bytes); `new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp` */
                            standard_webhooks_secret: string;
                            /** @description The key the last rotation replaced, while it still signs: `X-Service-Signature` with it alone, and `webhook-signature` with both keys (the new one first). Null when no overlap is running. */
                            old_key: {
                                /** @description For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form */
                                signing_key: string;
                                /** @description For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key's UTF-8 bytes); `new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp` */
                                standard_webhooks_secret: string;
                                /**
                                 * Format: date-time
                                 * @description When the old key stops signing; afterwards the new key signs both headers
                                 * @example 2026-11-21T09:30:00.000Z
                                 */
                                ends_at: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description How many hours the replaced key keeps signing beside the new one (0: it stops at once). Meanwhile receivers move to the new key: accept both, then only the new one.
                     * @default 0
                     */
                    keep_old_for_hours?: number;
                };
            };
        };
        responses: {
            /** @description The new signing key, and the old one while it still signs */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "signing_key": "whsec_…",
                     *         "standard_webhooks_secret": "whsec_…",
                     *         "old_key": {
                     *           "signing_key": "whsec_…",
                     *           "standard_webhooks_secret": "whsec_…",
                     *           "ends_at": "2026-11-30T09:05:49.537Z"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form */
                            signing_key: string;
                            /** @description For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key's UTF-8 bytes); `new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp` */
                            standard_webhooks_secret: string;
                            /** @description The key the last rotation replaced, while it still signs: `X-Service-Signature` with it alone, and `webhook-signature` with both keys (the new one first). Null when no overlap is running. */
                            old_key: {
                                /** @description For `X-Service-Signature`: the HMAC-SHA256 key (its UTF-8 bytes) of that header. Standard Webhooks libraries do not take this form */
                                signing_key: string;
                                /** @description For `webhook-signature` (Standard Webhooks): the same key in the form its libraries take (`whsec_` and the base64 of the signing key's UTF-8 bytes); `new Webhook(secret).verify(body, headers)` checks `webhook-signature` and `webhook-timestamp` */
                                standard_webhooks_secret: string;
                                /**
                                 * Format: date-time
                                 * @description When the old key stops signing; afterwards the new key signs both headers
                                 * @example 2026-11-21T09:30:00.000Z
                                 */
                                ends_at: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pauseWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "home": {
                     *           "type": "team",
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *         },
                     *         "url": "http://127.0.0.1:37859/hook",
                     *         "events": [
                     *           "guide.created"
                     *         ],
                     *         "description": "Help center",
                     *         "status": "paused",
                     *         "paused_reason": "manual",
                     *         "paused_at": "2026-11-29T09:05:49.629Z",
                     *         "old_signing_key_ends_at": "2026-11-30T09:05:49.537Z",
                     *         "created_at": "2026-11-29T09:05:49.472Z",
                     *         "updated_at": "2026-11-29T09:05:49.629Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminWebhookEndpoint"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resumeWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Send every missed delivery again, oldest first; false when left out
                     * @default false
                     */
                    redeliver_missed?: boolean;
                };
            };
        };
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "home": {
                     *           "type": "team",
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127"
                     *         },
                     *         "url": "http://127.0.0.1:37859/hook",
                     *         "events": [
                     *           "guide.created"
                     *         ],
                     *         "description": "Help center",
                     *         "status": "active",
                     *         "paused_reason": null,
                     *         "paused_at": null,
                     *         "old_signing_key_ends_at": "2026-11-30T09:05:49.537Z",
                     *         "created_at": "2026-11-29T09:05:49.472Z",
                     *         "updated_at": "2026-11-29T09:05:49.640Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminWebhookEndpoint"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    recoverWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Events to the endpoint created at or after this time are sent again when their latest attempt failed or was missed and no attempt of them is still to come; within the attempts' retention (WEBHOOK_ATTEMPTS_RETENTION_DAYS, 30 days by default), not in the future
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    since: string;
                };
            };
        };
        responses: {
            /** @description How many events are on their way again */
            202: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "events": 0
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description How many events are sent again, each as one new attempt (0: nothing to recover) */
                            events: number;
                        };
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pingWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The type of event to send, whether or not the endpoint picked it. Any type but `ping` is a test: its `data` is a sample (a guide or person that does not exist, named as a test event), and it is never in the events feed (GET /v1/events).
                     * @default ping
                     * @enum {string}
                     */
                    event_type?: "guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed" | "ping";
                };
            };
        };
        responses: {
            /** @description The ping or test event is on its way, or kept as missed while the endpoint is paused */
            202: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The next_cursor of the previous page */
                cursor?: string;
                status?: "scheduled" | "sending" | "delivered" | "failed" | "missed" | "cancelled";
                /** @description Only attempts of events of this type */
                event_type?: "guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed" | "ping";
                /** @description Only attempts of this event: its whole id, or its first 8 or more characters (the short id the console shows) */
                event_id?: string;
                /**
                 * @description Only attempts written at or after this time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                since?: string;
                /**
                 * @description Only attempts written before this time; later than `since`
                 * @example 2026-11-21T09:30:00.000Z
                 */
                until?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "3d895875-9b69-4898-a898-3a4e5d5483f2",
                     *           "endpoint_id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *           "event_id": "9220980a-b563-4b6b-80c8-7497ebefb59e",
                     *           "event_type": "ping",
                     *           "attempt_number": 1,
                     *           "status": "delivered",
                     *           "request_headers": {
                     *             "content-type": "application/json",
                     *             "user-agent": "Service-Webhooks/1",
                     *             "x-service-event": "ping",
                     *             "x-service-delivery": "3d895875-9b69-4898-a898-3a4e5d5483f2",
                     *             "x-service-signature": "sha256=e2ef09fb8283d3918e8c84a9694b5ae36b7c2fc6f95a87339533bb95babb468d",
                     *             "webhook-id": "9220980a-b563-4b6b-80c8-7497ebefb59e",
                     *             "webhook-timestamp": "1795943149",
                     *             "webhook-signature": "v1,wONOu5NN1ECC2CmdDK0p7G4YzEkzH6PPAwwYbAja1LM= v1,j5tE8MPzYcD9MVMgk6ffMdcCFnyRBFd7GrHcQ4+JeQM=",
                     *             "x-service-test": "true"
                     *           },
                     *           "request_body": "{\"id\":\"9220980a-b563-4b6b-80c8-7497ebefb59e\",\"created_at\":\"2026-11-29T09:05:49.545Z\",\"team_id\":\"287df09e-506e-4d07-80e8-09d5887e1127\",\"organization_id\":\"3bc8de55-d7f1-4159-8804-3af4e2e267d6\",\"type\":\"ping\",\"data\":{\"message\":\"Ping from the guide service: http://127.0.0.1:37859/hook is set up to receive events.\"}}",
                     *           "response_status": 200,
                     *           "response_body": "",
                     *           "error": null,
                     *           "duration_ms": 20,
                     *           "created_at": "2026-11-29T09:05:49.545Z",
                     *           "sent_at": "2026-11-29T09:05:49.555Z",
                     *           "due_at": "2026-11-29T09:05:49.545Z",
                     *           "next_attempt_at": null,
                     *           "test": true
                     *         }
                     *       ],
                     *       "next_cursor": "MjAyNi0xMS0yOVQwOTowNTo0OS41NDVafDNkODk1ODc1LTliNjktNDg5OC1hODk4LTNhNGU1ZDU0ODNmMg.xsNauYqCu852ADq8nyigfg"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminDeliveryAttempt"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resendDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new attempt */
            202: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "adb41f80-f35c-4f4f-8d19-671e25110a11",
                     *         "endpoint_id": "4b5eba5c-1a12-494b-963c-8931a0e3a0e2",
                     *         "event_id": "9220980a-b563-4b6b-80c8-7497ebefb59e",
                     *         "event_type": "ping",
                     *         "attempt_number": 2,
                     *         "status": "sending",
                     *         "request_headers": null,
                     *         "request_body": "{\"id\":\"9220980a-b563-4b6b-80c8-7497ebefb59e\",\"created_at\":\"2026-11-29T09:05:49.545Z\",\"team_id\":\"287df09e-506e-4d07-80e8-09d5887e1127\",\"organization_id\":\"3bc8de55-d7f1-4159-8804-3af4e2e267d6\",\"type\":\"ping\",\"data\":{\"message\":\"Ping from the guide service: http://127.0.0.1:37859/hook is set up to receive events.\"}}",
                     *         "response_status": null,
                     *         "response_body": null,
                     *         "error": null,
                     *         "duration_ms": null,
                     *         "created_at": "2026-11-29T09:05:49.610Z",
                     *         "sent_at": null,
                     *         "due_at": "2026-11-29T09:05:49.610Z",
                     *         "next_attempt_at": null,
                     *         "test": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AdminDeliveryAttempt"];
                    };
                };
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `forbidden`: Forbidden */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `not_found`: Not found */
            404: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `conflict`: Conflict; `idempotency_key_in_use`: Idempotency key in use; `limit_reached`: Limit reached */
            409: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `payload_too_large`: Payload too large */
            413: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `unsupported_media_type`: Unsupported media type */
            415: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `expectation_failed`: Expectation failed */
            417: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `idempotency_key_reused`: Idempotency key reused */
            422: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait, at least 1 */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `internal_error`: Internal error */
            500: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `service_unavailable`: Service unavailable */
            503: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Whole seconds to wait before trying again */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
