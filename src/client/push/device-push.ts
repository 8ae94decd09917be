/**
 * This device's Web Push subscription: whether the browser can receive alerts, turning them on
 * (permission, then a subscription with the server's VAPID key, then the server keeps it) and off.
 */
import { forgetSubscription, saveSubscription, vapidPublicKey } from '#client/api/queries/push.ts';

/**
 * - `ready`: the browser can subscribe;
 * - `install`: an iPhone or iPad browser tab: Web Push works only in the app added to the Home Screen
 *   (iOS 16.4 or later), opened from there;
 * - `blocked`: the user refused notifications to this site (only the browser's settings undo it);
 * - `unsupported`: no service worker or no Push API here (an old browser, or the development server).
 */
export type PushSupport = 'ready' | 'install' | 'blocked' | 'unsupported';

function isAppleMobile(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

function standalone(): boolean {
  return window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
}

export function pushSupport(): PushSupport {
  const capable = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (!capable) return isAppleMobile() && !standalone() ? 'install' : 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return 'ready';
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  return (await navigator.serviceWorker.getRegistration('/')) ?? undefined;
}

/** This device's subscription, if it has one. */
export async function deviceSubscription(): Promise<PushSubscription | null> {
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Asks for permission, subscribes with the server's key and has the server keep the subscription. */
export async function turnOnPush(): Promise<void> {
  const reg = await registration();
  if (!reg) throw new Error('Notifications need the installed app (its service worker is not running here).');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications were not allowed for this site.');
  const key = await vapidPublicKey();
  let subscription = await reg.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) cannot be used: make a new one.
  const current = subscription?.options.applicationServerKey;
  if (subscription && current && btoa(String.fromCharCode(...new Uint8Array(current))) !== btoa(String.fromCharCode(...keyBytes(key)))) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await saveSubscription(subscription.toJSON());
}

/** The server forgets this device, then the browser drops the subscription (best effort offline). */
export async function turnOffPush(): Promise<void> {
  const subscription = await deviceSubscription();
  if (!subscription) return;
  await forgetSubscription(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}
