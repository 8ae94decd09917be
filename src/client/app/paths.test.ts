import { describe, expect, it } from 'vitest';
import { safeRedirect } from './paths.ts';

describe('post-login destination', () => {
  it('returns to a page of this site', () => {
    expect(safeRedirect('/nav?portfolio=SMA')).toBe('/nav?portfolio=SMA');
  });
  it('never leaves the site or loops to login', () => {
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('/login?redirect=/nav')).toBe('/');
    expect(safeRedirect(undefined)).toBe('/');
  });
});
