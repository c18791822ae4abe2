// What each module of management routes is given when the admin plugin registers it.
import type { TSchema } from '@sinclair/typebox';
import type { DomainContext } from '../../domain/context.js';
import type { EndpointPolicy } from '../../webhooks/endpoints.js';
import type { responses } from '../schemas/responses.js';
import type { TypeBoxApp } from '../typebox-app.js';
import type { AdminPolicies } from './policies.js';

export interface AdminDeps {
  ctx: DomainContext;
  endpointPolicy: EndpointPolicy;
  /** Who may do what: every route that serves people checks them here. */
  can: AdminPolicies;
  respond: (status: number, description: string, success: TSchema | null) => ReturnType<typeof responses>;
}

export type AdminRoutes = (app: TypeBoxApp, deps: AdminDeps) => void;
