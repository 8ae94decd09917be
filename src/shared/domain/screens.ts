/** The app's screens and their paths (docs/product.md#screens): the client's routes, and what a notification opens. */
export const ROUTES = {
  home: '/',
  accounts: '/accounts',
  copy: '/copy',
  brokers: '/brokers',
  login: '/login',
  nav: '/nav',
  rebates: '/rebates',
} as const;

export type ScreenPath = (typeof ROUTES)[keyof typeof ROUTES];
