// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EmptyState, ErrorState, LoadingState } from './states.tsx';
import { SkeletonRows } from './skeleton.tsx';
import { CardList } from './card-list.tsx';

afterEach(cleanup);

describe('states', () => {
  it('announces loading and errors, and offers a retry', async () => {
    const user = userEvent.setup();
    let retries = 0;
    render(
      <>
        <LoadingState>Loading account data...</LoadingState>
        <ErrorState onRetry={() => (retries += 1)}>Error loading notifications</ErrorState>
        <EmptyState>No live positions to display.</EmptyState>
      </>,
    );
    expect(screen.getByRole('status').textContent).toContain('Loading account data...');
    expect(screen.getByRole('alert').textContent).toContain('Error loading notifications');
    expect(screen.getByText('No live positions to display.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
  });

  it('shows the requested number of skeleton rows', () => {
    const { container } = render(<SkeletonRows rows={3} columns={4} label="Loading positions" />);
    expect(screen.getByRole('status').textContent).toBe('Loading positions');
    expect(container.querySelectorAll('.ui-skeleton-row')).toHaveLength(3);
    expect(container.querySelectorAll('.ui-skeleton')).toHaveLength(12);
  });
});

describe('CardList', () => {
  const fields = [
    { key: 'ins', label: 'Ins', render: (item: { ins: string; pl: number }) => item.ins },
    { key: 'pl', label: 'P/L', render: (item: { ins: string; pl: number }) => item.pl.toFixed(2) },
  ];

  it('renders one card per item with label/value rows', () => {
    render(
      <CardList
        label="Live trades"
        items={[
          { ins: 'EURUSD', pl: 12.5 },
          { ins: 'AAPL', pl: -3 },
        ]}
        itemKey={(item) => item.ins}
        fields={fields}
      />,
    );
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[1]?.textContent).toContain('P/L-3.00');
  });

  it('shows its empty text', () => {
    render(<CardList items={[]} itemKey={() => 0} fields={fields} emptyText="No trade data available." />);
    expect(screen.getByText('No trade data available.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
