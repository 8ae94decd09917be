/**
 * Who receives which alert on their phone, and to which push services the server may post: pure rules.
 */
import { accountInPortfolio } from '#shared/domain/account-scope.ts';
import { authorisedPortfolios } from '#shared/domain/portfolio-selection.ts';
import { pushKindOf, type PushKind } from '#shared/domain/push-alerts.ts';

/**
 * The browsers' push services (Chrome and Android, Firefox, Safari and iOS, Edge): the only origins
 * the server posts to unless PUSH_SERVICE_ORIGINS replaces the list. `*.` matches any subdomain.
 */
export const DEFAULT_PUSH_SERVICE_ORIGINS: readonly string[] = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
];

/**
 * Whether a subscription's endpoint is on a push service of the allow-list: same scheme, same port,
 * and the host equal to the entry's or, for a `*.` entry, under it. Anything else (an internal
 * address, a look-alike host, credentials in the URL) is refused, so nobody can make the server call
 * an address of their choosing.
 */
export function isAllowedPushEndpoint(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return origins.some((origin) => {
    const wildcard = origin.includes('://*.');
    let allowed: URL;
    try {
      allowed = new URL(wildcard ? origin.replace('://*.', '://') : origin);
    } catch {
      return false;
    }
    if (allowed.protocol !== url.protocol || allowed.port !== url.port) return false;
    return wildcard ? url.hostname.endsWith(`.${allowed.hostname}`) : url.hostname === allowed.hostname;
  });
}

/** An alert as the dispatcher reads it. */
export interface AlertForPush {
  type: string;
  accountId: number | null;
  /** The account's category; null for an alert about the whole system (the bridge). */
  teikoCategory: string | null;
}

/** A subscribed user as the dispatcher sees them. */
export interface PushRecipient {
  portfolioAuth: readonly string[];
  /** The kinds chosen; null when never chosen (every kind). */
  kinds: readonly string[] | null;
}

/**
 * The kind to push an alert to this user as, or null when it is not for them: a kind that is pushed
 * and that they chose, about an account of a portfolio they may see (a system alert reaches everyone).
 */
export function pushFor(alert: AlertForPush, user: PushRecipient): PushKind | null {
  const kind = pushKindOf(alert.type);
  if (kind === null) return null;
  if (user.kinds !== null && !user.kinds.includes(kind)) return null;
  if (alert.accountId === null) return kind;
  if (alert.teikoCategory === null) return null;
  const category = alert.teikoCategory;
  return authorisedPortfolios(user.portfolioAuth).some((p) => accountInPortfolio(category, p)) ? kind : null;
}
