import { Component, createRef, type CSSProperties, type ReactNode } from 'react';

export interface FlipListProps {
  /** The items' keys in display order: the list's children are one element per key, in this order. */
  keys: readonly string[];
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  children: ReactNode;
}

/** Whether `next` only adds items after `prev`'s, or drops its last ones: nothing already shown moves. */
function onlyTheEndChanged(prev: readonly string[], next: readonly string[]): boolean {
  const shorter = prev.length <= next.length ? prev : next;
  const longer = shorter === prev ? next : prev;
  return shorter.every((key, i) => longer[i] === key);
}

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Each item element by its key: the children and the keys come in the same order. */
function itemsOf(list: HTMLElement | null, keys: readonly string[]): Map<string, HTMLElement> {
  const elements = list ? [...list.children].filter((child): child is HTMLElement => child instanceof HTMLElement) : [];
  return new Map(elements.map((element, i) => [keys[i] ?? '', element]));
}

/**
 * A list whose items slide to their new place when an item comes or goes elsewhere than at its
 * end (FLIP: each item's place is read just before the DOM changes and again after, and the item
 * is drawn from the old place to the new one with a transform). On a phone a live list otherwise
 * jumps under the reader's eyes each time a position opens at its top or closes, and Chromium
 * counts every such jump as a layout shift (0.16 of CLS in one Lighthouse run of Summary). With
 * reduced motion the items move at once.
 *
 * The Web Animations API does the sliding: framer-motion's layout animations would do the same but
 * would put its 140 kB on Summary's first load. A class, because getSnapshotBeforeUpdate is React's
 * one way to read the DOM just before a commit changes it.
 */
export class FlipList extends Component<FlipListProps> {
  private readonly list = createRef<HTMLUListElement>();

  override getSnapshotBeforeUpdate(prev: FlipListProps): Map<string, number> | null {
    if (onlyTheEndChanged(prev.keys, this.props.keys) || reducedMotion()) return null;
    // Where each item is seen now, a slide still running included.
    const items = itemsOf(this.list.current, prev.keys);
    return new Map([...items].map(([key, item]) => [key, item.getBoundingClientRect().top]));
  }

  override componentDidUpdate(_prev: FlipListProps, _state: unknown, before: Map<string, number> | null): void {
    if (!before) return;
    for (const [key, item] of itemsOf(this.list.current, this.props.keys)) {
      const was = before.get(key);
      if (was === undefined || typeof item.animate !== 'function') continue;
      for (const running of item.getAnimations()) running.cancel();
      const offset = was - item.getBoundingClientRect().top;
      if (Math.abs(offset) >= 1) {
        item.animate([{ transform: `translateY(${offset}px)` }, { transform: 'none' }], { duration: 250, easing: 'ease-out' });
      }
    }
  }

  override render() {
    return (
      <ul ref={this.list} className={this.props.className} style={this.props.style} aria-label={this.props['aria-label']}>
        {this.props.children}
      </ul>
    );
  }
}
