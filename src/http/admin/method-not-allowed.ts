// A known management path asked with a method it does not take is 405 with `Allow` listing the ones it
// does, as on /v1 (decisions §4), rather than a 404 that says the path does not exist. The paths are
// learned from the routes as they are registered, so a new route needs nothing here.
import type { FastifyRequest, RouteOptions } from 'fastify';
import { ProblemError } from '../problem.js';

export class RouteMethods {
  private readonly routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];

  /** For an onRoute hook: remembers the route's path pattern and methods. */
  readonly learn = (route: RouteOptions): void => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // `/teams/:id/members` → ^/teams/[^/]+/members/?$ (the prefix is part of route.url).
    const pattern = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`);
    const known = this.routes.find((entry) => entry.pattern.source === pattern.source);
    if (known) for (const method of methods) known.methods.add(method);
    else this.routes.push({ pattern, methods: new Set(methods) });
  };

  /** The refusal for a request that found no route: 405 when its path takes other methods, else null. */
  refusal(request: FastifyRequest): ProblemError | null {
    const path = request.url.split('?')[0]!;
    const allowed = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    if (allowed.size === 0 || allowed.has(request.method)) return null;
    const allow = [...allowed].sort().join(', ');
    return new ProblemError('method_not_allowed', `${request.method} is not allowed on this path; use ${allow}`, { allow });
  }
}
