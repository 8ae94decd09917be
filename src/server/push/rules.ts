/**
 * Who receives which alert on their phone, and to which push services the server may post: pure rules.
 */
import { accountInPortfolio } from '#shared/domain/account-scope.ts';
import { authorisedPortfolios } from '#shared/domain/portfolio-selection.ts';
import { pushKindOf, type PushKind } from '#shared/domain/push-alerts.ts';

/** One entry of the allow-list, parsed: scheme, port and host (for `*.host`, the suffix under which any subdomain matches). */
interface AllowedOrigin {
  protocol: string;
  port: string;
  host: string;
  wildcard: boolean;
}

/** A DNS label as a host name may hold it: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function parseAllowed(origin: string): AllowedOrigin | undefined {
  const wildcard = origin.includes('://*.');
  try {
    const url = new URL(wildcard ? origin.replace('://*.', '://') : origin);
    return { protocol: url.protocol, port: url.port, host: url.hostname, wildcard };
  } catch {
    return undefined;
  }
}

const parsedLists = new WeakMap<readonly string[], AllowedOrigin[]>();

function allowedOrigins(origins: readonly string[]): AllowedOrigin[] {
  let parsed = parsedLists.get(origins);
  if (!parsed) {
    parsed = origins.map(parseAllowed).filter((o) => o !== undefined);
    parsedLists.set(origins, parsed);
  }
  return parsed;
}

/**
 * Whether a subscription's endpoint is on a push service of the allow-list, compared on parsed
 * origins: same scheme, same port, and the host equal to the entry's or, for a `*.` entry, one or
 * more well-formed DNS labels under it (`https://.push.apple.com`, `https://a..push.apple.com` or
 * `https://-x.push.apple.com` are not hosts of Apple's). Anything else (an internal address, a
 * look-alike host, credentials in the URL) is refused, so nobody can make the server call an
 * address of their choosing.
 */
export function isAllowedPushEndpoint(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return allowedOrigins(origins).some((allowed) => {
    if (allowed.protocol !== url.protocol || allowed.port !== url.port) return false;
    if (!allowed.wildcard) return url.hostname === allowed.host;
    if (!url.hostname.endsWith(`.${allowed.host}`)) return false;
    const sub = url.hostname.slice(0, -(allowed.host.length + 1));
    return sub.split('.').every((label) => LABEL.test(label));
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
