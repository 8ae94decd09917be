/**
 * Which alerts reach a phone as a push notification, and what a tap on one opens. An alert's kind is
 * its type; the kinds a user can choose are the ones that call for attention away from the app.
 */
import { ROUTES, type ScreenPath } from './screens.ts';

/** The kinds a user may receive on their phone (all of them until the user chooses). */
export const PUSH_KINDS = ['drawdown', 'margin', 'equity_stop', 'guard', 'copy', 'ping', 'bridge'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PUSH_KIND_LABELS: Record<PushKind, string> = {
  drawdown: 'Drawdown threshold crossed',
  margin: 'Margin level threshold crossed',
  equity_stop: 'Equity stop fired',
  guard: 'Copy guard reached a level',
  copy: 'Copy missed or duplicated',
  ping: 'Account or terminal silent',
  bridge: 'Data bridge stopped or started',
};

/** The push kind of an alert type, or null when that type is not pushed (slippage stays in the app). */
export function pushKindOf(alertType: string): PushKind | null {
  return (PUSH_KINDS as readonly string[]).includes(alertType) ? (alertType as PushKind) : null;
}

/** The screen a tap on the notification opens: where the alert can be acted on. */
export function screenOfAlert(kind: PushKind): ScreenPath {
  switch (kind) {
    case 'drawdown':
    case 'margin':
    case 'ping':
      return ROUTES.accounts;
    case 'equity_stop':
    case 'guard':
    case 'copy':
      return ROUTES.copy;
    case 'bridge':
      return ROUTES.home;
  }
}

/** How soon the push service should wake the phone: a stop fired or a threshold crossed cannot wait. */
export function urgencyOf(kind: PushKind): 'high' | 'normal' {
  return kind === 'copy' || kind === 'ping' ? 'normal' : 'high';
}

/** What the service worker shows. */
export interface PushNotice {
  title: string;
  body: string;
  /** Same-origin path to open on a tap. */
  url: string;
  /** Notifications of one tag replace each other on the phone (the push topic collapses them on the way). */
  tag: string;
  /** epoch seconds of the alert */
  at: number;
}

const TITLES: Record<PushKind, string> = {
  drawdown: 'Drawdown alert',
  margin: 'Margin alert',
  equity_stop: 'Equity stop fired',
  guard: 'Copy guard',
  copy: 'Copy alert',
  ping: 'Account silent',
  bridge: 'Data bridge',
};

/**
 * The notice of one alert. Its tag (also the push Topic: at most 32 URL-safe characters) is the kind
 * and the account, so a newer alert of the same kind on the same account replaces an older one.
 */
export function noticeOf(alert: { id: number; type: PushKind; message: string; at: number; accountId: number | null }): PushNotice {
  return {
    title: TITLES[alert.type],
    body: alert.message,
    url: screenOfAlert(alert.type),
    tag: `${alert.type.replace(/_/g, '-')}-${alert.accountId ?? 'all'}`.slice(0, 32),
    at: alert.at,
  };
}
