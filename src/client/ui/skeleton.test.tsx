// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { SkeletonCards } from './skeleton.tsx';

afterEach(cleanup);

describe('SkeletonCards', () => {
  it('stands for compact trade rows: the list, two lines left, figure and note right', () => {
    const { container } = render(<SkeletonCards rows={3} label="Loading live trades..." />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading live trades...');
    expect(status.getAttribute('aria-busy')).toBe('true');
    // The real rows' list and column classes, so the placeholders take the rows' height and shape.
    expect(status.className).toBe('ui-trade-list');
    const rows = container.querySelectorAll('.ui-trade-skeleton');
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.querySelectorAll('.ui-trade-main > .ui-skeleton')).toHaveLength(2);
      expect(row.querySelectorAll('.ui-trade-side > .ui-skeleton')).toHaveLength(2);
    }
    expect(container.querySelectorAll('.ui-skeleton[aria-hidden="true"]')).toHaveLength(12);
  });

  it('draws no row for zero or a negative count', () => {
    const { container } = render(<SkeletonCards rows={-1} />);
    expect(container.querySelectorAll('.ui-trade-skeleton')).toHaveLength(0);
  });
});
