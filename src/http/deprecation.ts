// Deprecated operations (shared decisions §11 "Versioning", docs at /docs/versioning): a route that declares
// `config.deprecation` answers every request with `Deprecation` (RFC 9745: `@` and the Unix time it was
// deprecated), `Sunset` (RFC 8594: the HTTP date after which it may stop answering) and a `Link` to its
// notice (`rel="deprecation"`, and `rel="sunset"` to the same page), and its operation is marked
// `deprecated` in its OpenAPI document, with the dates in its description, which the reference shows.
// Only the routes that declare one get the hook that adds the headers: the others pay nothing.
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';

export interface Deprecation {
  /** When it was deprecated (RFC 3339). */
  since: string;
  /** When it may stop answering (RFC 3339): at least 12 months after `since` for /v1 (the policy). */
  sunset: string;
  /** The notice saying what replaces it: a path of the reference, e.g. `/docs/versioning#deprecated-list-guides`. */
  notice: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: Deprecation;
  }
}

/** The three headers of a deprecated operation. */
export function deprecationHeaders(deprecation: Deprecation, publicUrl: string): Record<string, string> {
  const notice = `${publicUrl}${deprecation.notice}`;
  return {
    deprecation: `@${Math.floor(Date.parse(deprecation.since) / 1000)}`,
    sunset: new Date(deprecation.sunset).toUTCString(),
    link: `<${notice}>; rel="deprecation"; type="text/html", <${notice}>; rel="sunset"; type="text/html"`,
  };
}

/** Installs the headers and the document's marks on every route of `app` (a plugin) declared after it. */
export function installDeprecations(app: FastifyInstance, publicUrl: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const deprecation = route.config?.deprecation;
    if (!deprecation) return;
    const schema = route.schema as ({ deprecated?: boolean; description?: string } & object) | undefined;
    if (schema) {
      schema.deprecated = true;
      const notice = `${publicUrl}${deprecation.notice}`;
      schema.description = `**Deprecated** since ${deprecation.since.slice(0, 10)}; it may stop answering after ${deprecation.sunset.slice(0, 10)}: see [the notice](${notice}). ${schema.description ?? ''}`.trim();
    }
    const headers = deprecationHeaders(deprecation, publicUrl);
    const addHeaders: onSendHookHandler = async (_request: FastifyRequest, reply: FastifyReply, payload) => {
      reply.headers(headers);
      return payload;
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), addHeaders];
  });
}
