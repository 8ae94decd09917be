// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useStagedMount, useSteppedCount } from './use-staged-mount.ts';

afterEach(cleanup);

function List({ total }: { total: number }) {
  const shown = useSteppedCount(total, 3, 3);
  return (
    <ul aria-label="cards">
      {Array.from({ length: shown }, (_, i) => (
        <li key={i}>card {i + 1}</li>
      ))}
    </ul>
  );
}

describe('useSteppedCount', () => {
  it('shows the first step at once and the rest a step later, up to the target and no further', async () => {
    render(<List total={10} />);
    // The first render holds the first three cards only.
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(10));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
  });

  it('follows a list that shrinks at once, and climbs again when it grows', async () => {
    const { rerender } = render(<List total={7} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(7));
    rerender(<List total={2} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    rerender(<List total={12} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(12));
  });
});

function Stages() {
  const stage = useStagedMount(3);
  return <p>stage {stage}</p>;
}

describe('useStagedMount', () => {
  it('starts at stage 0 and reaches the last stage', async () => {
    render(<Stages />);
    expect(screen.getByText('stage 0')).toBeTruthy();
    expect(await screen.findByText('stage 3')).toBeTruthy();
  });
});
