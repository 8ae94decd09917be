// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { NavRow } from '#shared/contract/nav.ts';
import { historicalViewRows } from '#shared/domain/nav-view.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import { CardList } from '#client/ui/card-list.tsx';
import { SortableTable } from '#client/ui/sortable-table.tsx';
import { brokerNavCardField, brokerNavColumns, hasBrokerNav, withBrokerNav } from './broker-nav.tsx';

afterEach(cleanup);

const row = (r: Partial<NavRow>): NavRow => ({
  account_id: 'a',
  date_id: '11.2026',
  date_day: 26,
  account_name: 'A',
  account: '1',
  balance: 0,
  equity: 0,
  broker_name: 'B',
  last_update: 0,
  teiko_category: 'global equity',
  img_path: '',
  currency: 'EUR',
  balance_currency: 0,
  account_currency: 'EUR',
  derived: false,
  broker_equity: null,
  broker_difference: null,
  ...r,
});

// The books say 10 250,00 at the day's end; IB's EquitySummary said 10 252,40: a difference of −2,40.
const month = [
  row({ account_id: 'ib', account_name: 'IB Equities', equity: 10_250, balance: 10_000, broker_equity: 10_252.4, broker_difference: -2.4 }),
  row({ account_id: 'mt', account_name: 'MT Follower', equity: 5_000, balance: 5_000, currency: 'USD', account_currency: 'USD' }),
  // Another day of the same account: not the one in view.
  row({ account_id: 'ib', date_day: 25, account_name: 'IB Equities', equity: 10_100, broker_equity: 10_000, broker_difference: 100 }),
];

describe('broker NAV on the NAV screen', () => {
  const rows = withBrokerNav(historicalViewRows(month, '11.2026', 26), month);

  it("joins each row in view to its own day's broker NAV, and none where the statement gave none", () => {
    expect(rows.map((r) => [r.account_name, r.broker_equity, r.broker_difference])).toEqual([
      ['IB Equities', 10_252.4, -2.4],
      ['MT Follower', null, null],
    ]);
    expect(hasBrokerNav(rows)).toBe(true);
    expect(hasBrokerNav(withBrokerNav(historicalViewRows(month.slice(1, 2), '11.2026', 26), month.slice(1, 2)))).toBe(false);
  });

  it("shows 'Broker NAV' and 'Difference' as columns on a large screen", () => {
    render(<SortableTable label="NAV accounts" columns={brokerNavColumns} rows={rows} rowKey={(r) => r.id} />);
    // Each header ends with its sort mark.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([expect.stringMatching(/^Broker NAV/), expect.stringMatching(/^Difference/)]);
    const [ib, mt] = screen.getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(within(ib).getAllByRole('cell').map((c) => c.textContent)).toEqual([formatNavMoney(10_252.4, 'EUR'), formatNavMoney(-2.4, 'EUR')]);
    expect(within(mt).getAllByRole('cell').map((c) => c.textContent)).toEqual(['—', '—']);
  });

  it("shows them as one line of the card on a phone, labelled 'Broker NAV' and 'Difference'", () => {
    render(<CardList label="NAV accounts" items={rows} itemKey={(r) => r.id} title={(r) => r.account_name} fields={[brokerNavCardField]} />);
    const [ib, mt] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect([...ib.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Broker NAV']);
    expect(ib.querySelector('dd')?.textContent).toBe(`${formatNavMoney(10_252.4, 'EUR')} Difference ${formatNavMoney(-2.4, 'EUR')}`);
    expect(mt.querySelector('dd')?.textContent).toBe('—');
  });
});
