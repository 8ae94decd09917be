/**
 * The outbox on the device (the rules are in outbox.ts): one IndexedDB value per user, under the
 * user's prefix (a SHA-256 of the session key, as for the other stores), holding that user's kept
 * changes; cleared on sign-out with the other stores (clear-user-data.ts). Without IndexedDB the
 * changes live in memory only, for as long as the page.
 */
import { useSyncExternalStore } from 'react';
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { sessionStore } from '#client/auth/session-store.ts';
import { userPrefix } from './offline-api.ts';
import { addToOutbox, keepAfterFailure, parseStoredOutbox, targetOf, withoutKeys, withoutTarget, type OutboxEntry } from './outbox.ts';
import { indexedDbAvailable } from './query-persister.ts';
import { listeners } from '#client/listeners.ts';

export const OUTBOX_DB = 'copy-monitor-outbox';
export const OUTBOX_STORE = 'changes';

let idbStore: UseStore | undefined;
export function outboxStore(): UseStore {
  idbStore ??= createStore(OUTBOX_DB, OUTBOX_STORE);
  return idbStore;
}

interface State {
  /** The session key the entries belong to; null signed out. */
  owner: string | null;
  entries: readonly OutboxEntry[];
}

const changes = listeners();
let state: State = { owner: null, entries: [] };
/** Writes one after another, so an older list never lands after a newer one. */
let writing: Promise<unknown> = Promise.resolve();

const currentKey = () => sessionStore.get()?.api_key ?? null;

function publish(next: State): void {
  state = next;
  changes.emit();
}

function persist(owner: string, entries: readonly OutboxEntry[]): Promise<void> {
  if (!indexedDbAvailable()) return Promise.resolve();
  const job = writing.then(async () => {
    const prefix = await userPrefix(owner);
    // Signed out meanwhile: sign-out cleared the store, a late write must not fill it again.
    if (currentKey() === owner) await set(prefix, entries, outboxStore());
  });
  writing = job.catch(() => undefined);
  return job;
}

/** Reads the signed-in user's entries (once per session key); entries added meanwhile are kept on top. */
function load(): void {
  const owner = currentKey();
  if (owner === state.owner) return;
  publish({ owner, entries: [] });
  if (owner === null || !indexedDbAvailable()) return;
  void userPrefix(owner)
    .then((prefix) => get<unknown>(prefix, outboxStore()))
    .then((stored) => {
      if (state.owner !== owner) return;
      const merged = state.entries.reduce(addToOutbox, parseStoredOutbox(stored));
      publish({ owner, entries: merged });
    })
    .catch(() => undefined);
}

let watching = false;
function watchSession(): void {
  if (watching) return;
  watching = true;
  sessionStore.subscribe(load);
}

function update(change: (entries: readonly OutboxEntry[]) => OutboxEntry[]): Promise<void> {
  watchSession();
  load();
  const owner = state.owner;
  if (owner === null) return Promise.resolve();
  const entries = change(state.entries);
  publish({ owner, entries });
  return persist(owner, entries);
}

const EMPTY: readonly OutboxEntry[] = [];

export const outbox = {
  /** The signed-in user's entries (none until they are read from the device). */
  entries: (): readonly OutboxEntry[] => (state.owner !== null && state.owner === currentKey() ? state.entries : EMPTY),
  subscribe: (listener: () => void): (() => void) => {
    watchSession();
    load();
    return changes.subscribe(listener);
  },
  add: (entry: OutboxEntry) => update((entries) => addToOutbox(entries, entry)),
  remove: (keys: Iterable<string>) => update((entries) => withoutKeys(entries, keys)),
  removeTarget: (target: string) => update((entries) => withoutTarget(entries, target)),
  /** Forgets the entries in memory (sign-out clears the store itself); the next use reads the store again. */
  reset: (): void => publish({ owner: null, entries: [] }),
};

export function useOutbox(): readonly OutboxEntry[] {
  return useSyncExternalStore(outbox.subscribe, outbox.entries, outbox.entries);
}

const browserOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

/**
 * Sends a change at once, or keeps it in the outbox when there is no connection (the browser is
 * offline, or the call got no answer). The first attempt already carries the change's
 * Idempotency-Key, so if it did reach the server and only its answer was lost, the later send is
 * answered from the server's record instead of applied twice. A change sent online supersedes any
 * pending change of the same target.
 */
export async function sendOrKeep<T>(entry: OutboxEntry, send: (idempotencyKey: string) => Promise<T>): Promise<{ kept: true } | { kept: false; result: T }> {
  if (!browserOnline()) {
    await outbox.add(entry);
    return { kept: true };
  }
  try {
    const result = await send(entry.key);
    if (outbox.entries().some((e) => targetOf(e) === targetOf(entry))) await outbox.removeTarget(targetOf(entry));
    return { kept: false, result };
  } catch (err) {
    if (!keepAfterFailure(err, browserOnline())) throw err;
    await outbox.add(entry);
    return { kept: true };
  }
}
