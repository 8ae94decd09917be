import { mutationOptions } from '@tanstack/react-query';
import type { LoginBody } from '#shared/contract/auth.ts';
import { endpoints } from '#shared/contract/endpoints.ts';
import { apiRequest } from '#client/api/http.ts';
import { sessionStore } from '#client/auth/session-store.ts';

/** When the server refuses a sign-in without a message (docs/client.md). */
export const LOGIN_FAILED = 'Login failed. Please try again.';

export const sessionMutations = {
  /** Signs in: the session (its key, permissions and portfolios) is kept on the device once the server answers. */
  login: () =>
    mutationOptions({
      mutationKey: ['session', 'login'],
      mutationFn: (body: LoginBody) => apiRequest(endpoints.login, { body, fallbackMessage: LOGIN_FAILED }),
      onSuccess: ({ data }) => sessionStore.save(data),
    }),
};
