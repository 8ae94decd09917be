import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import type { BridgeService } from '#server/services/bridge-service.ts';

/** The data bridge's state, and switching it (write users; BridgeService). */
export const bridgeRoutes: FastifyPluginAsyncZod<{ bridge: BridgeService }> = async (app, { bridge }) => {
  const errors = { 401: ErrorResponse, 403: ErrorResponse, 503: ErrorResponse };

  app.get(endpoints.bridgeStatus.path, { schema: { response: { 200: endpoints.bridgeStatus.response, ...errors } } }, async () => {
    const state = await bridge.status();
    return { data: { running: state.running, changed_at: Math.floor(state.changedAt.getTime() / 1000) } };
  });

  for (const [endpoint, running] of [
    [endpoints.bridgeStart, true],
    [endpoints.bridgeStop, false],
  ] as const) {
    app.post(
      endpoint.path,
      { preValidation: requirePermission('write'), schema: { response: { 200: endpoint.response, ...errors } } },
      async (request) => {
        const changed = await bridge.switch(callerOf(request), running);
        const state = running ? 'started' : 'stopped';
        return { message: changed ? `Bridge ${state}.` : `Bridge already ${state}.` };
      },
    );
  }
};
