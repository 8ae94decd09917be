/**
 * What the service worker makes of a push message: the notice the server sent, checked field by
 * field (the worker carries no schema library), and a tap's destination kept to the app's own paths.
 */
import type { PushNotice } from '#shared/domain/push-alerts.ts';
import { ROUTES } from '#shared/domain/screens.ts';

const SCREENS: ReadonlySet<string> = new Set(Object.values(ROUTES));

/** The notice in a push message's text, or a plain one when the text is not ours. */
export function readNotice(text: string | null): PushNotice {
  try {
    const value = JSON.parse(text ?? '') as Partial<Record<keyof PushNotice, unknown>>;
    if (typeof value.title === 'string' && typeof value.body === 'string' && typeof value.tag === 'string') {
      return {
        title: value.title.slice(0, 120),
        body: value.body.slice(0, 500),
        url: typeof value.url === 'string' && SCREENS.has(value.url) ? value.url : ROUTES.home,
        tag: value.tag.slice(0, 64),
        at: typeof value.at === 'number' && Number.isFinite(value.at) ? value.at : Date.now() / 1000,
      };
    }
  } catch {
    // Not JSON: shown as a plain alert.
  }
  return { title: 'Copy Monitor', body: (text ?? '').slice(0, 500) || 'New alert', url: ROUTES.home, tag: 'alert', at: Date.now() / 1000 };
}

/** The path a tap opens: the notice's screen if it is one of the app's, else Summary. */
export function destinationOf(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return typeof url === 'string' && SCREENS.has(url) ? url : ROUTES.home;
}
