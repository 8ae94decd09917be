import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlipList } from './flip-list.tsx';

const HEIGHT = 100;
let animate: ReturnType<typeof vi.fn>;

// happy-dom lays nothing out: an item is HEIGHT tall and sits where its place in the list puts it.
beforeEach(() => {
  animate = vi.fn();
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const index = this.parentElement ? [...this.parentElement.children].indexOf(this) : 0;
    return DOMRect.fromRect({ x: 0, y: index * HEIGHT, width: 300, height: HEIGHT });
  });
  Object.assign(HTMLElement.prototype, { animate, getAnimations: () => [] });
});
afterEach(() => vi.restoreAllMocks());

const list = (keys: string[]) => (
  <FlipList keys={keys} aria-label="Positions">
    {keys.map((k) => (
      <li key={k}>
        {k}
      </li>
    ))}
  </FlipList>
);

/** The slide each animated item was given, by its key: the distance it starts from. */
const slides = (): Record<string, unknown> => {
  const items = animate.mock.contexts as HTMLElement[];
  const keyframes = animate.mock.calls.map((call) => call[0] as Keyframe[]);
  return Object.fromEntries(items.map((item, i): [string, unknown] => [item.textContent ?? '', keyframes[i]?.[0]?.transform]));
};

describe('FlipList', () => {
  it('slides the items below a closed one up from where they were', () => {
    const { rerender, getByRole } = render(list(['a', 'b', 'c']));
    rerender(list(['b', 'c']));
    // b was at 100 and is now at 0: it starts 100 px down and slides up; so does c.
    expect(slides()).toEqual({ b: 'translateY(100px)', c: 'translateY(100px)' });
    expect(getByRole('list', { name: 'Positions' }).children).toHaveLength(2);
  });

  it('slides the items down when a new one opens at the top', () => {
    const { rerender } = render(list(['b', 'c']));
    rerender(list(['a', 'b', 'c']));
    expect(slides()).toEqual({ b: 'translateY(-100px)', c: 'translateY(-100px)' });
  });

  it('moves nothing when items are only added or dropped at the end (the stepped first draw)', () => {
    const { rerender } = render(list(['a', 'b', 'c']));
    rerender(list(['a', 'b', 'c', 'd', 'e', 'f']));
    rerender(list(['a', 'b']));
    expect(animate).not.toHaveBeenCalled();
  });

  it('moves the items at once for a reader who asked for reduced motion', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ matches: query.includes('reduce') }) as MediaQueryList);
    const { rerender } = render(list(['a', 'b', 'c']));
    rerender(list(['b', 'c']));
    expect(animate).not.toHaveBeenCalled();
  });
});
