import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import { endpoints } from '#shared/contract/endpoints.ts';
import { callerOf } from '#server/auth/guard.ts';
import type { PushService } from '#server/services/push-service.ts';

/** Web Push (docs/push.md): any signed-in user subscribes their own devices and chooses their own kinds. */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService }> = async (app, { push }) => {
  const errors = { 400: ErrorResponse, 401: ErrorResponse };

  app.get(
    endpoints.vapidKey.path,
    { schema: { querystring: endpoints.vapidKey.query, response: { 200: endpoints.vapidKey.response, ...errors } } },
    async () => ({ public_key: (await push.vapid()).publicKey }),
  );

  app.post(
    endpoints.pushSubscribe.path,
    { schema: { body: endpoints.pushSubscribe.body, response: { 200: endpoints.pushSubscribe.response, ...errors } } },
    async (request) => {
      const { dropped, maxDevices, ...data } = await push.subscribe(callerOf(request).id, request.body);
      const message =
        dropped > 0
          ? `Notifications are on for this device. At most ${maxDevices} devices receive them: your least recently subscribed one no longer does.`
          : 'Notifications are on for this device.';
      return { message, data };
    },
  );

  app.delete(
    endpoints.pushUnsubscribe.path,
    { schema: { body: endpoints.pushUnsubscribe.body, response: { 200: endpoints.pushUnsubscribe.response, ...errors } } },
    async (request) => {
      await push.unsubscribe(callerOf(request).id, request.body.endpoint);
      return { message: 'Notifications are off for this device.' };
    },
  );

  app.get(
    endpoints.pushPreferences.path,
    { schema: { querystring: endpoints.pushPreferences.query, response: { 200: endpoints.pushPreferences.response, ...errors } } },
    async (request) => push.preferences(callerOf(request).id),
  );

  app.put(
    endpoints.setPushPreferences.path,
    { schema: { body: endpoints.setPushPreferences.body, response: { 200: endpoints.setPushPreferences.response, ...errors } } },
    async (request) => push.setPreferences(callerOf(request).id, request.body.kinds),
  );
};
