// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { isUnconfirmed, UNCONFIRMED_TITLE, UnconfirmedLabel, unconfirmedText } from './unconfirmed-label.tsx';

afterEach(cleanup);

describe('the unconfirmed mark of a position (docs/ingest-api.md, "Closes need evidence")', () => {
  const since = Date.UTC(2026, 2, 5, 14, 3) / 1000;

  it('says since when: the time alone today, the day and time before', () => {
    expect(unconfirmedText(since, since + 600, 'UTC')).toBe('Unconfirmed since 14:03');
    expect(unconfirmedText(since, since + 86_400, 'UTC')).toBe('Unconfirmed since 05/03/2026 14:03');
    expect(unconfirmedText(since, since + 600, 'Europe/Paris')).toBe('Unconfirmed since 15:03');
  });

  it('marks only a row with unconfirmed_since, with why in its title', () => {
    expect(isUnconfirmed({})).toBe(false);
    expect(isUnconfirmed({ unconfirmed_since: since })).toBe(true);
    const { container } = render(
      <>
        <UnconfirmedLabel since={undefined} />
        <UnconfirmedLabel since={since} />
      </>,
    );
    const labels = container.querySelectorAll('.ui-unconfirmed');
    expect(labels).toHaveLength(1);
    expect(labels[0]?.getAttribute('title')).toBe(UNCONFIRMED_TITLE);
    expect(labels[0]?.textContent).toMatch(/^Unconfirmed since /);
  });
});
