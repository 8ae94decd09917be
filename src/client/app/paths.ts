/** Route constants of docs/product.md#screens. */
export const ROUTES = {
  home: '/',
  accounts: '/accounts',
  copy: '/copy',
  brokers: '/brokers',
  login: '/login',
  nav: '/nav',
  rebates: '/rebates',
} as const;

/** Only a same-origin path may be a post-login destination (no open redirect). */
export function safeRedirect(target: unknown): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return ROUTES.home;
  }
  return target.startsWith(ROUTES.login) ? ROUTES.home : target;
}
