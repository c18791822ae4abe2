// GET /auth/verify (spec §4.1): confirms the key works and says what it is.
import { Type } from '@sinclair/typebox';
import type { V1Routes } from './v1-routes.js';
import { NoParameters } from '../schemas/common.js';
import { admittedKey } from './key-auth.js';
import { presentKey } from './presenters.js';

export const registerAuthVerify: V1Routes = (app, { respond }) => {
  app.get(
    '/auth/verify',
    {
      schema: {
        operationId: 'verifyKey',
        summary: 'Confirm the key works and return what it is',
        description: 'The first call after wiring in a key. Needs no scope.',
        tags: ['Authentication'],
        querystring: NoParameters,
        response: respond(200, 'The key', Type.Object({ data: Type.Ref('Key') }), []),
      },
    },
    async (request) => ({ data: presentKey(admittedKey(request)) }),
  );
};
