import { describe, expect, it } from 'vitest';
import { destinationOf, readNotice } from './notice.ts';

describe('a push message in the service worker', () => {
  it('shows the server’s notice and opens its screen', () => {
    const notice = readNotice(JSON.stringify({ title: 'Equity stop fired', body: 'Follower 1', url: '/copy', tag: 'equity-stop-3', at: 1_795_000_000 }));
    expect(notice).toEqual({ title: 'Equity stop fired', body: 'Follower 1', url: '/copy', tag: 'equity-stop-3', at: 1_795_000_000 });
    expect(destinationOf({ url: notice.url })).toBe('/copy');
  });

  it('never opens anything but the app’s own screens', () => {
    expect(readNotice(JSON.stringify({ title: 't', body: 'b', url: 'https://evil.example/', tag: 'x' })).url).toBe('/');
    expect(readNotice(JSON.stringify({ title: 't', body: 'b', url: '//evil.example', tag: 'x' })).url).toBe('/');
    expect(destinationOf({ url: 'javascript:alert(1)' })).toBe('/');
    expect(destinationOf(null)).toBe('/');
  });

  it('shows text that is not a notice as a plain alert', () => {
    expect(readNotice('Hello')).toMatchObject({ title: 'Copy Monitor', body: 'Hello', url: '/' });
    expect(readNotice(null)).toMatchObject({ body: 'New alert' });
  });
});
