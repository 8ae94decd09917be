import { describe, expect, it } from 'vitest';
import { listeners } from './listeners.ts';

describe('listeners', () => {
  it('tells each listener once per change until it unsubscribes', () => {
    const changes = listeners();
    const told: string[] = [];
    const stopA = changes.subscribe(() => told.push('a'));
    changes.subscribe(() => told.push('b'));
    changes.emit();
    stopA();
    changes.emit();
    expect(told).toEqual(['a', 'b', 'b']);
  });

  it('tells the listeners there were when a change began, even if one unsubscribes another', () => {
    const changes = listeners();
    const told: string[] = [];
    let stopB = () => undefined as unknown;
    changes.subscribe(() => {
      told.push('a');
      stopB();
    });
    stopB = changes.subscribe(() => told.push('b'));
    changes.emit();
    changes.emit();
    expect(told).toEqual(['a', 'b', 'a']);
  });
});
