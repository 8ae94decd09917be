import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf } from '#server/auth/guard.ts';
import type { AuthService } from '#server/services/auth-service.ts';

/** Sign-in, sign-out, password change and websocket tickets (AuthService). */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    endpoints.login.path,
    {
      config: { public: true },
      schema: {
        body: endpoints.login.body,
        response: { 200: endpoints.login.response, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => ({ data: await auth.login(request.body.username, request.body.password, request.ip, request.log) }),
  );

  app.post(
    endpoints.logout.path,
    { schema: { response: { 200: endpoints.logout.response, 401: ErrorResponse } } },
    async (request) => {
      await auth.logout(callerOf(request));
      return { message: 'Signed out.' };
    },
  );

  app.post(
    endpoints.changePassword.path,
    {
      schema: {
        body: endpoints.changePassword.body,
        response: { 200: endpoints.changePassword.response, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (request) => {
      const { current_password, new_password } = request.body;
      const { apiKey } = await auth.changePassword(callerOf(request), current_password, new_password, request.ip, request.log);
      return { message: 'Password changed. You are signed out everywhere else.', data: { api_key: apiKey } };
    },
  );

  app.post(
    endpoints.wsTicket.path,
    { schema: { response: { 200: endpoints.wsTicket.response, 401: ErrorResponse } } },
    async (request) => ({ data: { ticket: await auth.wsTicket(callerOf(request)) } }),
  );
};
