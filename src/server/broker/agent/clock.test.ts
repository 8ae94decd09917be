import { describe, expect, it } from 'vitest';
import { clockStatus } from './clock.ts';

describe("an agent's clock on its status", () => {
  it('is ok within 2 s either way, and unknown before any batch', () => {
    expect(clockStatus(1.4)).toBe('ok');
    expect(clockStatus(-2)).toBe('ok');
    expect(clockStatus(null)).toBe('-');
  });

  it('says how far behind or ahead it is', () => {
    expect(clockStatus(45)).toBe('45 s behind');
    expect(clockStatus(-6)).toBe('6 s ahead');
  });

  it('flags a clock ahead by a third of an order\'s life (10 s of 30 s): its terminal takes orders as expired', () => {
    expect(clockStatus(-120)).toBe('120 s ahead (FLAGGED: orders, valid 30 s, expire before its terminal runs them)');
    expect(clockStatus(-10)).toMatch(/FLAGGED/);
    expect(clockStatus(-9)).toBe('9 s ahead');
  });
});
