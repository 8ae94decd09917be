// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore, USER_DATA_KEY } from './session-store.ts';

const session = { api_key: 'k', portfolio_auth: ['SMA'], status: 'active', restrictions: ['write'] };

describe('stored session (docs/product.md#fields–4)', () => {
  beforeEach(() => localStorage.clear());

  it('is signed in whenever user_data holds an api key', () => {
    localStorage.setItem(USER_DATA_KEY, JSON.stringify(session));
    expect(sessionStore.isAuthenticated()).toBe(true);
    expect(sessionStore.get()?.portfolio_auth).toEqual(['SMA']);
  });

  it('treats unparsable or incomplete data as signed out', () => {
    localStorage.setItem(USER_DATA_KEY, '{not json');
    expect(sessionStore.isAuthenticated()).toBe(false);
    localStorage.setItem(USER_DATA_KEY, JSON.stringify({ portfolio_auth: [] }));
    expect(sessionStore.isAuthenticated()).toBe(false);
  });

  it('tells subscribers when it is saved or cleared', () => {
    const listener = vi.fn();
    const unsubscribe = sessionStore.subscribe(listener);
    sessionStore.save(session);
    expect(localStorage.getItem(USER_DATA_KEY)).toContain('"api_key":"k"');
    sessionStore.clear();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(sessionStore.isAuthenticated()).toBe(false);
    unsubscribe();
  });
});
