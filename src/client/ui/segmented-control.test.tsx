// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHART_TYPES, DEFAULT_CHART_TYPE, type ChartType } from '#shared/domain/constants.ts';
import { SegmentedControl } from './segmented-control.tsx';

afterEach(cleanup);

function ChartTypes() {
  const [value, setValue] = useState<ChartType>(DEFAULT_CHART_TYPE);
  return <SegmentedControl label="Chart type" options={CHART_TYPES} value={value} onChange={setValue} />;
}

const checked = () => screen.getAllByRole('radio').filter((radio) => radio.getAttribute('aria-checked') === 'true');

describe('SegmentedControl', () => {
  it('changes value on click', async () => {
    const user = userEvent.setup();
    render(<ChartTypes />);
    expect(screen.getByRole('radiogroup', { name: 'Chart type' })).toBeTruthy();
    expect(checked().map((radio) => radio.textContent)).toEqual(['Balance']);
    await user.click(screen.getByRole('radio', { name: 'Drawdown' }));
    expect(checked().map((radio) => radio.textContent)).toEqual(['Drawdown']);
  });

  it('moves with the arrow keys, one tab stop', async () => {
    const user = userEvent.setup();
    render(<ChartTypes />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Balance' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Profit' }).getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Profit' }));
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Drawdown' }).getAttribute('aria-checked')).toBe('true');
  });
});
