// What each module of /v1 routes is given when the v1 plugin registers it.
import type { TSchema } from '@sinclair/typebox';
import type { DomainContext } from '../../domain/context.js';
import type { ErrorCode } from '../error-catalogue.js';
import type { responses } from '../schemas/responses.js';
import type { TypeBoxApp } from '../typebox-app.js';

export interface V1Deps {
  ctx: DomainContext;
  respond: (status: number, description: string, success: TSchema, errors: readonly ErrorCode[]) => ReturnType<typeof responses>;
}

export type V1Routes = (app: TypeBoxApp, deps: V1Deps) => void;
