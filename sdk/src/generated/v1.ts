// Generated from the service's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
// Do not edit: run `npm run generate` in sdk/ after changing one of its schemas.

export interface paths {
    "/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Confirm the key works and return what it is
         * @description The first call after wiring in a key. Needs no scope.
         */
        get: operations["verifyKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/guides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search guides
         * @description Every guide the key reaches, drafts included, newest first (created_at, then id, descending), in keyset pages. Guides still processing are left out. Listing is never cut by plan: each guide carries its `locked` flag. A cursor is bound to the key and to the `team_id` and `q` it came with. Needs `guides:read`.
         */
        get: operations["listGuides"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/guides/{guideId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one guide with its markdown body
         * @description A UUID-shaped `guideId` (any letter case) is read as an id, anything else as a permalink. On a plan without full API access `markdown_body` is a preview and `notice` says why; a locked guide is cut to its short cut. Needs `guides:read`.
         */
        get: operations["getGuide"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the teams the key reaches
         * @description A team key's own team, or every team of an organization key's organization, including teams that join later. Ordered by name ignoring case (teams without a name last), then id. Needs `teams:read`.
         */
        get: operations["listTeams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the members of one team
         * @description Every member of one team the key reaches, ordered by joined_at, then id. Needs `members:read`.
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the events feed
         * @description The events the key reaches, oldest first (in the order they were committed), in keyset pages: the same events, with the same JSON body, that webhook deliveries carry, for integrations that catch up without webhooks. A team key reaches its team's events, an organization key the events of every team while it is in the organization. `guide.*` events need `guides:read`, `member.*` events `members:read`; without `types` the key gets every kind its scopes allow. `ping` is never in the feed. Every answer carries `next_cursor`, the last page too: poll with it as `after` for what comes next, with `wait` to have an empty page held open until an event arrives. The cursor is bound to the key, not to `types`: a client may change the types it follows and go on from where it was. Events are kept `EVENTS_RETENTION_DAYS` (30 by default); a cursor older than that is 400 `cursor_expired`: start again without `after`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "guide.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The guide.created event
         * @description A guide is created in the team, or moved into it from another team; drafts count. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_guide_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "guide.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The guide.updated event
         * @description A guide changes, draft or not; `changed` lists the columns that changed. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_guide_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "guide.ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The guide.ready event
         * @description Processing of a recording or import finished and the guide has its steps. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_guide_ready"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "guide.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The guide.failed event
         * @description Processing failed; the guide remains. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_guide_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "guide.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The guide.deleted event
         * @description A guide is deleted or moved out of the team. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_guide_deleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.joined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The member.joined event
         * @description Someone joins the team. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_member_joined"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.left": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The member.left event
         * @description Someone leaves the team. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_member_left"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.role_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The member.role_changed event
         * @description A member's role on the team changes. Delivered as a signed JSON POST to every endpoint that picked it; any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_member_role_changed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The ping event
         * @description An admin asked for a ping, or the endpoint was just registered. Delivered as a signed JSON POST to every endpoint that picked it (a ping goes to one endpoint, unpicked); any 2xx answer within the time-out counts as delivered, anything else is retried.
         */
        post: operations["on_ping"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
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
        Key: {
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
        };
        GuideListItem: {
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
        };
        Guide: {
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
        };
        Team: {
            /** Format: uuid */
            id: string;
            name: string | null;
            /**
             * @description The caller's role; null for a key
             * @enum {string|null}
             */
            role: "EDITOR" | "VIEWER" | "ADMIN" | null;
        };
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
        /** @description The `data` of guide.created, guide.updated, guide.ready and guide.failed: the guide as it is (never its body: GET /guides/{guideId} has it) and where it is */
        GuideEventData: {
            guide: {
                /** Format: uuid */
                id: string;
                title: string | null;
                description: string | null;
                permalink: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-21T09:30:00.000Z
                 */
                updated_at: string | null;
                /** Format: uuid */
                team_id: string;
                /** Format: uuid */
                folder_id: string | null;
                language: string;
                /**
                 * Format: uri
                 * @description The guide in the application
                 */
                url: string;
            };
            placement: {
                /** @description In Team Guides (moved out of Drafts) */
                team_guides: boolean;
                /** @description Readable by anyone with the share link */
                public_link: boolean;
            };
            /** @description The columns that changed, for guide.updated; empty for the other events */
            changed: ("title" | "description" | "body" | "permalink" | "language" | "folder_id" | "publish_status" | "team_role" | "is_public")[];
        };
        /** @description The `data` of guide.deleted: the guide that was deleted or moved out of the team */
        GuideDeletedData: {
            guide: {
                /** Format: uuid */
                id: string;
                /**
                 * Format: uuid
                 * @description The team the guide was deleted from or moved out of
                 */
                team_id: string;
            };
        };
        /** @description The `data` of member.joined, member.left and member.role_changed */
        MemberEventData: {
            member: {
                /** Format: uuid */
                user_id: string;
                email: string;
                name: string | null;
                role: components["schemas"]["TeamRole"];
                /** Format: uuid */
                team_id: string;
            };
        };
        /** @description The `data` of ping: a message naming the endpoint it tests */
        PingData: {
            message: string;
        };
        /** @description One event, exactly the JSON body its webhook deliveries carry (same fields, same order) */
        Event: {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "guide.created";
            data: components["schemas"]["GuideEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "guide.updated";
            data: components["schemas"]["GuideEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "guide.ready";
            data: components["schemas"]["GuideEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "guide.failed";
            data: components["schemas"]["GuideEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "guide.deleted";
            data: components["schemas"]["GuideDeletedData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "member.joined";
            data: components["schemas"]["MemberEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "member.left";
            data: components["schemas"]["MemberEventData"];
        } | {
            /**
             * Format: uuid
             * @description The event id: the same on every delivery of the event, for deduplication
             */
            id: string;
            /**
             * Format: date-time
             * @example 2026-11-21T09:30:00.000Z
             */
            created_at: string;
            /** Format: uuid */
            team_id: string;
            /** Format: uuid */
            organization_id: string | null;
            /**
             * @description The event type, which says what `data` holds
             * @enum {string}
             */
            type: "member.role_changed";
            data: components["schemas"]["MemberEventData"];
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
    verifyKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "cb3bc202-b5e5-48dd-a530-9aa74e4b6b3c",
                     *         "name": "Help center sync",
                     *         "home": {
                     *           "type": "organization",
                     *           "id": "3bc8de55-d7f1-4159-8804-3af4e2e267d6"
                     *         },
                     *         "scopes": [
                     *           "guides:read",
                     *           "teams:read",
                     *           "members:read"
                     *         ],
                     *         "expires_at": "2027-02-27T09:05:49.462Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Key"];
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    listGuides: {
        parameters: {
            query?: {
                /** @description Narrows to one team; when omitted, every team the key reaches */
                team_id?: string;
                /** @description Text the guide title contains, as written but for case (2 to 200 characters): one piece, so `reset password` does not find "Reset a password" (MCP's search_guides searches by words: /docs#searching); %, _ and \ are plain characters */
                q?: string;
                /** @description Rows per page */
                limit?: number;
                /** @description The next_cursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of guides */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "f6ede440-597f-4181-99f0-66ee05f12a11",
                     *           "team_id": "287df09e-506e-4d07-80e8-09d5887e1127",
                     *           "created_at": "2026-11-29T09:05:49.418Z",
                     *           "updated_at": "2026-11-29T09:05:49.433Z",
                     *           "title": "Reset a customer’s password",
                     *           "description": "For support agents.",
                     *           "owner_name": "Ana Lima",
                     *           "icon_url": null,
                     *           "permalink": "reset-a-customer-password",
                     *           "publish_status": "PUBLISHED",
                     *           "locked": false
                     *         }
                     *       ],
                     *       "next_cursor": "MjAyNi0xMS0yOVQwOTowNTo0OS40MThafGY2ZWRlNDQwLTU5N2YtNDE4MS05OWYwLTY2ZWUwNWYxMmExMQ.oiZgE95UAkPjPKVxyMdEpw"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["GuideListItem"][];
                        /** @description Pass as `cursor` for the next page; null on the last page; opaque */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    getGuide: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path: {
                /** @description The guide id or its permalink */
                guideId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The guide */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "f6ede440-597f-4181-99f0-66ee05f12a11",
                     *         "team_id": "287df09e-506e-4d07-80e8-09d5887e1127",
                     *         "created_at": "2026-11-29T09:05:49.418Z",
                     *         "updated_at": "2026-11-29T09:05:49.433Z",
                     *         "title": "Reset a customer’s password",
                     *         "description": "For support agents.",
                     *         "owner_name": "Ana Lima",
                     *         "icon_url": null,
                     *         "permalink": "reset-a-customer-password",
                     *         "publish_status": "PUBLISHED",
                     *         "locked": false,
                     *         "language": "en",
                     *         "text_direction": "ltr",
                     *         "app_version": null,
                     *         "thumbnail_url": null,
                     *         "tags": null,
                     *         "folder_id": null,
                     *         "is_public": true,
                     *         "markdown_body": "# Reset a customer’s password\n\nFor support agents.\n\n1. Open \\*\\*Settings\\*\\* → \\*Security\\*.\n2. Choose \\*\\*Reset password\\*\\* and confirm.\n   ![The reset button](https://cdn.example.com/reset.png)\n",
                     *         "brand_color": "#0B5FFF",
                     *         "notice": null
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Guide"];
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    listTeams: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The teams */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "287df09e-506e-4d07-80e8-09d5887e1127",
                     *           "name": "Customer Support",
                     *           "role": null
                     *         },
                     *         {
                     *           "id": "170e2979-9a28-4fbf-a0de-9979525b595e",
                     *           "name": "Onboarding",
                     *           "role": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Team"][];
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    listMembers: {
        parameters: {
            query: {
                /** @description The team; find ids with GET /teams */
                team_id: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "89afe458-3a4e-41e5-9c70-29f5f1474e36",
                     *           "name": "Ana Lima",
                     *           "email": "ana@example.com",
                     *           "avatar_url": null,
                     *           "role": "EDITOR",
                     *           "joined_at": "2026-11-29T09:05:49.293Z"
                     *         },
                     *         {
                     *           "id": "73f3dd00-422d-4ad0-bf31-9aef9286834b",
                     *           "name": "Cy Chen",
                     *           "email": "cy@example.com",
                     *           "avatar_url": null,
                     *           "role": "VIEWER",
                     *           "joined_at": "2026-11-29T09:05:49.359Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Member"][];
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    listEvents: {
        parameters: {
            query?: {
                /** @description The next_cursor of an earlier page: the events after it. Omitted: from the oldest event kept */
                after?: string;
                /** @description The event types to keep, separated by commas (`types=guide.created,guide.deleted`), each once; omitted: every type the key's scopes allow */
                types?: ("guide.created" | "guide.updated" | "guide.ready" | "guide.failed" | "guide.deleted" | "member.joined" | "member.left" | "member.role_changed")[];
                /** @description Events per page */
                limit?: number;
                /** @description Seconds (0 to 30) to hold an empty page open until an event arrives; the answer comes as soon as one does */
                wait?: number;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 Not Modified, without a body, while it is still current */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, oldest first */
            200: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "52e2c441-3d13-41c0-8fb0-5fcf453f9286",
                     *           "created_at": "2026-11-29T09:05:49.397Z",
                     *           "team_id": "287df09e-506e-4d07-80e8-09d5887e1127",
                     *           "organization_id": "3bc8de55-d7f1-4159-8804-3af4e2e267d6",
                     *           "type": "guide.created",
                     *           "data": {
                     *             "guide": {
                     *               "id": "9899d1b3-8a43-4868-9bb1-809f51f95d70",
                     *               "title": "Invite a teammate",
                     *               "description": null,
                     *               "permalink": "invite-a-teammate-yxjziawe",
                     *               "updated_at": "2026-11-29T09:05:49.397Z",
                     *               "team_id": "287df09e-506e-4d07-80e8-09d5887e1127",
                     *               "folder_id": null,
                     *               "language": "en",
                     *               "url": "https://guides.example.com/guides/9899d1b3-8a43-4868-9bb1-809f51f95d70"
                     *             },
                     *             "placement": {
                     *               "team_guides": true,
                     *               "public_link": false
                     *             },
                     *             "changed": []
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": "MjAyNi0xMS0yOVQwOTowNTo0OS4zOTdafDUyZTJjNDQxLTNkMTMtNDFjMC04ZmIwLTVmY2Y0NTNmOTI4Ng.KscwR4VDfecLuRnfpCrj1g"
                     *     }
                     */
                    "application/json": {
                        /** @description Events oldest first */
                        data: components["schemas"]["Event"][];
                        /** @description Pass as `after` for what comes next; present on the last page too, so a client polls with it. Null only when the key has no event yet and came without `after`: ask again without it */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Not Modified: If-None-Match names the current ETag; no body */
            304: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description A strong tag of the body; send it back in If-None-Match */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_request`: Invalid request; `cursor_expired`: Cursor expired */
            400: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `invalid_key`: Invalid API key; `key_expired`: API key expired */
            401: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The RFC 6750 challenge: Bearer realm="guide-service", followed by error="invalid_token" and an error_description when a bearer token was sent and refused */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `scope_missing`: Scope missing; `api_disabled`: API access disabled; `team_keys_disabled`: Team keys disabled */
            403: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `method_not_allowed`: Method not allowed */
            405: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    /** @description The methods the path takes */
                    Allow: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description `rate_limited`: Rate limit exceeded; `too_many_waits`: Too many waiting requests */
            429: {
                headers: {
                    /** @description The request id; quote it to support */
                    "X-Request-Id": string;
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy"?: string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit?: string;
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
                    /** @description Requests allowed in the window */
                    "RateLimit-Limit": number;
                    /** @description Requests left in the window */
                    "RateLimit-Remaining": number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset": number;
                    /** @description The policy, as in the IETF draft: "default";q=600;w=60 */
                    "RateLimit-Policy": string;
                    /** @description The current state, as in the IETF draft: "default";r=<remaining>;t=<reset> */
                    RateLimit: string;
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
    on_guide_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "guide.created",
                 *       "data": {
                 *         "guide": {
                 *           "id": "0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f",
                 *           "title": "Reset a password",
                 *           "description": null,
                 *           "permalink": "reset-a-password-k3x9p2",
                 *           "updated_at": "2026-11-21T09:30:00.000Z",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *           "folder_id": null,
                 *           "language": "en",
                 *           "url": "https://guides.example.com/guides/0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f"
                 *         },
                 *         "placement": {
                 *           "team_guides": true,
                 *           "public_link": false
                 *         },
                 *         "changed": []
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "guide.created";
                    data: components["schemas"]["GuideEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_guide_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "guide.updated",
                 *       "data": {
                 *         "guide": {
                 *           "id": "0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f",
                 *           "title": "Reset a password",
                 *           "description": null,
                 *           "permalink": "reset-a-password-k3x9p2",
                 *           "updated_at": "2026-11-21T09:30:00.000Z",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *           "folder_id": null,
                 *           "language": "en",
                 *           "url": "https://guides.example.com/guides/0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f"
                 *         },
                 *         "placement": {
                 *           "team_guides": true,
                 *           "public_link": false
                 *         },
                 *         "changed": [
                 *           "title",
                 *           "publish_status"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "guide.updated";
                    data: components["schemas"]["GuideEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_guide_ready: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "guide.ready",
                 *       "data": {
                 *         "guide": {
                 *           "id": "0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f",
                 *           "title": "Reset a password",
                 *           "description": null,
                 *           "permalink": "reset-a-password-k3x9p2",
                 *           "updated_at": "2026-11-21T09:30:00.000Z",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *           "folder_id": null,
                 *           "language": "en",
                 *           "url": "https://guides.example.com/guides/0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f"
                 *         },
                 *         "placement": {
                 *           "team_guides": true,
                 *           "public_link": false
                 *         },
                 *         "changed": []
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "guide.ready";
                    data: components["schemas"]["GuideEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_guide_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "guide.failed",
                 *       "data": {
                 *         "guide": {
                 *           "id": "0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f",
                 *           "title": "Reset a password",
                 *           "description": null,
                 *           "permalink": "reset-a-password-k3x9p2",
                 *           "updated_at": "2026-11-21T09:30:00.000Z",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *           "folder_id": null,
                 *           "language": "en",
                 *           "url": "https://guides.example.com/guides/0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f"
                 *         },
                 *         "placement": {
                 *           "team_guides": true,
                 *           "public_link": false
                 *         },
                 *         "changed": []
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "guide.failed";
                    data: components["schemas"]["GuideEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_guide_deleted: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "guide.deleted",
                 *       "data": {
                 *         "guide": {
                 *           "id": "0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "guide.deleted";
                    data: components["schemas"]["GuideDeletedData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_member_joined: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "member.joined",
                 *       "data": {
                 *         "member": {
                 *           "user_id": "7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a",
                 *           "email": "ana@example.com",
                 *           "name": "Ana",
                 *           "role": "EDITOR",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "member.joined";
                    data: components["schemas"]["MemberEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_member_left: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "member.left",
                 *       "data": {
                 *         "member": {
                 *           "user_id": "7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a",
                 *           "email": "ana@example.com",
                 *           "name": "Ana",
                 *           "role": "EDITOR",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "member.left";
                    data: components["schemas"]["MemberEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_member_role_changed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "member.role_changed",
                 *       "data": {
                 *         "member": {
                 *           "user_id": "7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a",
                 *           "email": "ana@example.com",
                 *           "name": "Ana",
                 *           "role": "EDITOR",
                 *           "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "member.role_changed";
                    data: components["schemas"]["MemberEventData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    on_ping: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type, as in `type` */
                "X-Service-Event": string;
                /** @description This delivery attempt, as in the Deliveries list; new on every retry */
                "X-Service-Delivery": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the endpoint's `signing_key` (its UTF-8 bytes; `standard_webhooks_secret` is the same key for `webhook-signature`); compare it in constant time before trusting the body */
                "X-Service-Signature": string;
                /** @description Standard Webhooks: the event id, as in `id`; the same on every attempt and resend, to dedupe on */
                "webhook-id": string;
                /** @description Standard Webhooks: when this attempt was sent, in whole seconds since the Unix epoch; refuse one too far from now */
                "webhook-timestamp": string;
                /** @description Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the signing key; Standard Webhooks libraries verify it (and the timestamp) with the endpoint's `standard_webhooks_secret` */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
                 *       "created_at": "2026-11-21T09:30:00.000Z",
                 *       "team_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "organization_id": null,
                 *       "type": "ping",
                 *       "data": {
                 *         "message": "Ping from the guide service: https://hooks.example.com/guides is set up to receive events."
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description The event id: the same on every delivery of the event, for deduplication
                     */
                    id: string;
                    /**
                     * Format: date-time
                     * @example 2026-11-21T09:30:00.000Z
                     */
                    created_at: string;
                    /** Format: uuid */
                    team_id: string;
                    /** Format: uuid */
                    organization_id: string | null;
                    /**
                     * @description The event type, which says what `data` holds
                     * @constant
                     */
                    type: "ping";
                    data: components["schemas"]["PingData"];
                };
            };
        };
        responses: {
            /** @description Delivered */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not delivered: retried on the schedule */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
