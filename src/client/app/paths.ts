import { ROUTES } from '#shared/domain/screens.ts';

export { ROUTES };

/** Only a same-origin path may be a post-login destination (no open redirect). */
export function safeRedirect(target: unknown): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return ROUTES.home;
  }
  return target.startsWith(ROUTES.login) ? ROUTES.home : target;
}
