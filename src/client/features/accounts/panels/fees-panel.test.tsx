// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { applyClientConfig, setRuntimeConfig } from '#client/config/runtime-config.ts';
import { FeesPanel } from './fees-panel.tsx';

// Thursday 27 November 2026, 10:00 UTC: this month is 2026-11, last month 2026-10, last quarter 2026-Q3.
const NOW = new Date('2026-11-27T10:00:00Z');

beforeEach(() => {
  // Only the clock's date: React, TanStack Query and user-event keep their real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setRuntimeConfig(null);
});

const feeAccount = (currency: string) => ({
  account_id: 'acc-1',
  account_name: 'CON Follower 03',
  broker_name: '8cap',
  login: '5122470',
  currency,
  category: 'consolidate',
});

const DEFAULT_TERMS = {
  data: {
    account: feeAccount('EUR'),
    current: {
      terms: { period: 'monthly', performance: { rate: 0.25, basis: 'equity', withdrawals: 'amount' }, management: null, volume: null },
      effective_from: null,
      default: true,
    },
    versions: [],
    mark: 36814.09,
    accrued: 0,
  },
};

const inForce = { period: 'quarterly', performance: { rate: 0.2, basis: 'balance', withdrawals: 'proportional' }, management: { annual_rate: 0.02 }, volume: { usd_per_million: 30 } };
const toCome = { period: 'monthly', performance: { rate: 0.3, basis: 'equity', withdrawals: 'amount' }, management: null, volume: { usd_per_million: 25 } };
const CUSTOM_TERMS = {
  data: {
    account: feeAccount('USD'),
    current: { terms: inForce, effective_from: '2026-11-01', default: false },
    versions: [
      { effective_from: '2026-11-01', terms: inForce, set_by: 'admin', set_at: 1_793_000_000 },
      { effective_from: '2027-01-01', terms: toCome, set_by: 'admin', set_at: 1_795_700_000 },
    ],
    mark: 34711.11,
    accrued: 12.5,
  },
};

const entry = (e: Record<string, unknown>) => ({ basis: 0, mark_before: null, mark_after: null, rate: 0, currency: 'EUR', note: '', ...e });
const day = (iso: string) => Date.parse(`${iso}T23:59:59Z`) / 1000;
const FEES = {
  data: {
    account: feeAccount('EUR'),
    from: '2026-11-01',
    to: '2026-11-30',
    entries: [
      entry({ kind: 'management', entry: 'accrual', period: '2026-11', at: day('2026-11-01'), amount: 0.547945, note: '2 % × 10,000.00 ÷ 365' }),
      entry({ kind: 'management', entry: 'accrual', period: '2026-11', at: day('2026-11-02'), amount: 0.547945, note: '2 % × 10,000.00 ÷ 365' }),
      entry({ kind: 'management', entry: 'accrual', period: '2026-11', at: day('2026-11-03'), amount: 0.547945, note: '2 % × 10,000.00 ÷ 365' }),
      entry({ kind: 'volume', entry: 'charge', period: '2026-11', at: day('2026-11-02'), amount: 0.6, note: '30 USD per million × 20,000.00 USD = 0.60 USD = 0.60 EUR' }),
      entry({ kind: 'performance', entry: 'adjustment', period: '2026-10', at: day('2026-11-03'), amount: -12, note: '25 % × −48.00 (deal 1042 changed)' }),
    ],
    totals: [
      { kind: 'performance', currency: 'EUR', charged: -12, accrued: 0 },
      { kind: 'management', currency: 'EUR', charged: 0, accrued: 1.64 },
      { kind: 'volume', currency: 'EUR', charged: 0.6, accrued: 0 },
    ],
  },
};
const NO_FEES = { data: { ...FEES.data, entries: [], totals: [] } };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Answer = (url: URL, init: RequestInit) => Response;

/** The network: each 'METHOD /path' answers as given (404 otherwise); every request is kept. */
function network(answers: Record<string, Answer>) {
  const sent: { method: string; url: URL; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    sent.push({ method, url, init });
    const answer = answers[`${method} ${url.pathname}`];
    return Promise.resolve(answer ? answer(url, init) : json(404, { message: `Not found: ${method} ${url.pathname}` }));
  });
  return sent;
}

function show(canWrite: boolean, currency = 'EUR') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <FeesPanel accountId="acc-1" accountName="CON Follower 03" currency={currency} canWrite={canWrite} />
    </QueryClientProvider>,
  );
}

/** What the eye reads: no-break and narrow no-break spaces as spaces. */
const seen = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** The label/value tiles of a figure list, as read. */
function figuresOf(list: HTMLElement): Record<string, string> {
  return Object.fromEntries([...list.querySelectorAll('.figure')].map((f) => [seen(f.querySelector('dt')), seen(f.querySelector('dd'))]));
}

/** Catches the download: the object URL's blob and the link's file name. */
function catchDownload() {
  const caught: { blob?: Blob; name?: string } = {};
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    caught.blob = blob as Blob;
    return 'blob:statement';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    caught.name = this.download;
  });
  return caught;
}

describe('FeesPanel: the terms in force', () => {
  it('states the default terms in one line, with the mark and the accrual in the account’s currency', async () => {
    network({ 'GET /api/fees/terms': () => json(200, DEFAULT_TERMS), 'GET /api/fees': () => json(200, NO_FEES) });
    show(false);
    const panel = screen.getByRole('region', { name: 'Fees & statement' });
    expect(await within(panel).findByText('Default: 25 % performance fee, monthly, on equity')).toBeTruthy();
    expect(figuresOf(within(panel).getByLabelText('Fee terms in force'))).toEqual({
      'High-water mark': '36 814,09 €',
      'Management fee accrued': '0,00 €',
    });
    expect(within(panel).queryByRole('list', { name: 'Terms to come' })).toBeNull();
  });

  it('shows terms that were set, rates in percent, and only the versions still to come', async () => {
    const sent = network({ 'GET /api/fees/terms': () => json(200, CUSTOM_TERMS), 'GET /api/fees': () => json(200, NO_FEES) });
    show(false, 'USD');
    const terms = await screen.findByLabelText('Fee terms in force');
    expect(figuresOf(terms)).toEqual({
      'Fee period': 'Quarterly',
      'Performance fee': '20 %',
      'Measured on': 'Closed balance',
      'Withdrawal rule': 'Lowers the mark in proportion',
      'Management fee': '2 % a year',
      'Volume fee': '30 USD per million',
      'High-water mark': '34 711,11 $',
      'Management fee accrued': '12,50 $',
    });
    expect(screen.getByText('In force since 01/11/2026')).toBeTruthy();
    expect(screen.queryByText(/^Default:/)).toBeNull();
    const coming = within(screen.getByRole('list', { name: 'Terms to come' })).getAllByRole('listitem');
    expect(coming.map(seen)).toEqual([
      'From 01/01/2027: 30 % performance fee on equity, 25 USD per million volume fee, charged monthly; withdrawals: lowers the mark by the amount · set by admin',
    ]);
    expect(Object.fromEntries(sent.find((s) => s.url.pathname === '/api/fees/terms')!.url.searchParams)).toEqual({ account: 'acc-1' });
  });
});

describe('FeesPanel: setting terms', () => {
  it('offers no form to a user without the write permission', async () => {
    network({ 'GET /api/fees/terms': () => json(200, DEFAULT_TERMS), 'GET /api/fees': () => json(200, NO_FEES) });
    show(false);
    await screen.findByText('Default: 25 % performance fee, monthly, on equity');
    expect(screen.queryByRole('button', { name: 'Set fee terms' })).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByLabelText(/^Performance fee \(%/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save terms' })).toBeNull();
  });

  it('sends the rates typed in percent as fractions, with an Idempotency-Key, then reads the terms again and shows the server’s message', async () => {
    const message = 'Fee terms of CON Follower 03 set from 01/01/2027.';
    const sent = network({
      'GET /api/fees/terms': () => json(200, DEFAULT_TERMS),
      'GET /api/fees': () => json(200, NO_FEES),
      'PUT /api/fees/terms': () => json(200, { message }),
    });
    const user = userEvent.setup();
    show(true);
    await screen.findByText('Default: 25 % performance fee, monthly, on equity');
    await user.click(screen.getByRole('button', { name: 'Set fee terms' }));
    const form = screen.getByRole('form', { name: 'Set fee terms of CON Follower 03' });

    // Starts from the terms in force, on the first day of next month.
    const from = within(form).getByLabelText<HTMLInputElement>('In force from');
    expect(from.value).toBe('2026-12-01');
    expect(from.min).toBe('2026-11-27');
    const rate = within(form).getByLabelText<HTMLInputElement>('Performance fee (% above the mark)');
    expect(rate.value).toBe('25');
    expect(within(form).queryByLabelText('Management fee (% a year)')).toBeNull();

    fireEvent.change(from, { target: { value: '2027-01-01' } });
    await user.selectOptions(within(form).getByLabelText('Fee period'), 'Quarterly');
    await user.clear(rate);
    await user.type(rate, '12.5');
    await user.selectOptions(within(form).getByLabelText('Measured on'), 'Closed balance');
    await user.selectOptions(within(form).getByLabelText('A withdrawal lowers the mark'), 'In proportion');
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a management fee' }));
    const annual = within(form).getByLabelText('Management fee (% a year)');
    await user.clear(annual);
    await user.type(annual, '1.5');
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a volume fee' }));
    await user.type(within(form).getByLabelText('Volume fee (USD per million)'), '30');
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));

    expect(await within(form).findByText(message)).toBeTruthy();
    const puts = sent.filter((s) => s.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.url.pathname).toBe('/api/fees/terms');
    expect(JSON.parse(puts[0]!.init.body as string)).toEqual({
      account: 'acc-1',
      effective_from: '2027-01-01',
      terms: {
        period: 'quarterly',
        performance: { rate: 0.125, basis: 'balance', withdrawals: 'proportional' },
        management: { annual_rate: 0.015 },
        volume: { usd_per_million: 30 },
      },
    });
    expect((puts[0]!.init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    // The terms are read again after the change.
    await waitFor(() => expect(sent.filter((s) => s.method === 'GET' && s.url.pathname === '/api/fees/terms')).toHaveLength(2));
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('sends a kind turned off as null, and keeps the server’s message in sight as the new terms come in', async () => {
    const managementOnly = { period: 'quarterly', performance: null, management: { annual_rate: 0.02 }, volume: null };
    const after = { data: { ...CUSTOM_TERMS.data, current: { terms: managementOnly, effective_from: '2026-12-01', default: false } } };
    let saved = false;
    const sent = network({
      'GET /api/fees/terms': () => json(200, saved ? after : CUSTOM_TERMS),
      'GET /api/fees': () => json(200, NO_FEES),
      'PUT /api/fees/terms': () => {
        saved = true;
        return json(200, { message: 'Fee terms of CON Follower 03 set from 01/12/2026.' });
      },
    });
    const user = userEvent.setup();
    show(true, 'USD');
    await screen.findByText('In force since 01/11/2026');
    await user.click(screen.getByRole('button', { name: 'Set fee terms' }));
    const form = screen.getByRole('form');
    expect(within(form).getByLabelText<HTMLInputElement>('Management fee (% a year)').value).toBe('2');
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a performance fee' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a volume fee' }));
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));
    await within(form).findByText('Fee terms of CON Follower 03 set from 01/12/2026.');
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(JSON.parse(put.init.body as string)).toEqual({
      account: 'acc-1',
      effective_from: '2026-12-01',
      terms: { period: 'quarterly', performance: null, management: { annual_rate: 0.02 }, volume: null },
    });
    await waitFor(() => expect(figuresOf(screen.getByLabelText('Fee terms in force'))['Performance fee']).toBe('None'));
    expect(within(form).getByRole('status').textContent).toBe('Fee terms of CON Follower 03 set from 01/12/2026.');
  });

  it('refuses a rate beyond the contract’s limits or a past day before sending, and shows the server’s refusal', async () => {
    const refusal = 'effective_from must be today (2026-11-27) or later: fee terms are never retroactive.';
    const sent = network({
      'GET /api/fees/terms': () => json(200, DEFAULT_TERMS),
      'GET /api/fees': () => json(200, NO_FEES),
      'PUT /api/fees/terms': () => json(400, { message: refusal }),
    });
    const user = userEvent.setup();
    show(true);
    await screen.findByText('Default: 25 % performance fee, monthly, on equity');
    await user.click(screen.getByRole('button', { name: 'Set fee terms' }));
    const form = screen.getByRole('form');
    const rate = within(form).getByLabelText('Performance fee (% above the mark)');
    await user.clear(rate);
    await user.type(rate, '150');
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));
    expect(seen(within(form).getByRole('alert'))).toBe('The performance fee must be a number from 0 to 100 %.');

    await user.clear(rate);
    await user.type(rate, '20');
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a management fee' }));
    const annual = within(form).getByLabelText('Management fee (% a year)');
    await user.clear(annual);
    await user.type(annual, '25');
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));
    expect(seen(within(form).getByRole('alert'))).toBe('The management fee must be a number from 0 to 20 % a year.');
    await user.click(within(form).getByRole('checkbox', { name: 'Charge a management fee' }));

    fireEvent.change(within(form).getByLabelText('In force from'), { target: { value: '2026-11-26' } });
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));
    expect(seen(within(form).getByRole('alert'))).toBe('Choose the first day of the terms: today (27/11/2026) or later. Fee terms are never retroactive.');
    expect(sent.filter((s) => s.method === 'PUT')).toEqual([]);

    // Today passes here; the server's word is shown as it is.
    fireEvent.change(within(form).getByLabelText('In force from'), { target: { value: '2026-11-27' } });
    await user.click(within(form).getByRole('button', { name: 'Save terms' }));
    await waitFor(() => expect(seen(within(form).getByRole('alert'))).toBe(refusal));
    expect(sent.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });
});

describe('FeesPanel: the statement', () => {
  it('downloads the chosen period’s statement under the server’s file name, or statement.pdf when it gives none', async () => {
    const caught = catchDownload();
    const csv = '\ufeffItem,Amount,Currency\r\nOpening balance,10000,EUR\r\n';
    const sent = network({
      'GET /api/fees/terms': () => json(200, DEFAULT_TERMS),
      'GET /api/fees': () => json(200, NO_FEES),
      'GET /api/statements': (url) =>
        url.searchParams.get('format') === 'csv'
          ? new Response(csv, {
              status: 200,
              headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="statement_CON_Follower_03_2026-07-01_2026-09-30.csv"' },
            })
          : new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { 'content-type': 'application/pdf' } }),
    });
    const user = userEvent.setup();
    show(false);
    expect(seen(await screen.findByText(/^01\/11\/2026/))).toBe('01/11/2026 – 30/11/2026');
    await user.click(screen.getByRole('radio', { name: 'Last quarter' }));
    expect(seen(screen.getByText(/^01\/07\/2026/))).toBe('01/07/2026 – 30/09/2026');

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(caught.name).toBe('statement_CON_Follower_03_2026-07-01_2026-09-30.csv'));
    expect(await caught.blob!.text()).toBe(csv);
    const csvCall = sent.find((s) => s.url.pathname === '/api/statements')!;
    expect(Object.fromEntries(csvCall.url.searchParams)).toEqual({ account: 'acc-1', period: '2026-Q3', format: 'csv' });

    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-15' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-14' } });
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(caught.name).toBe('statement.pdf'));
    const pdfCall = sent.filter((s) => s.url.pathname === '/api/statements')[1]!;
    expect(Object.fromEntries(pdfCall.url.searchParams)).toEqual({ account: 'acc-1', from: '2026-10-15', to: '2026-11-14', format: 'pdf' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why a statement could not be had, and refuses a custom range that ends before it starts', async () => {
    catchDownload();
    network({
      'GET /api/fees/terms': () => json(200, DEFAULT_TERMS),
      'GET /api/fees': () => json(200, NO_FEES),
      'GET /api/statements': () => json(404, { message: 'Account not found: acc-1' }),
    });
    const user = userEvent.setup();
    show(false);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(seen(await screen.findByRole('alert'))).toBe('Account not found: acc-1');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download PDF' }).disabled).toBe(false);

    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-10' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download PDF' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Download CSV' }).disabled).toBe(true);
    expect(screen.getByText('Give a first day, and a last day that does not come before it.')).toBeTruthy();
  });

  it('hides Download PDF when the deployment turns PDF reports off, and keeps the CSV', async () => {
    expect(applyClientConfig({ api_base_url: '', ws_base_url: '', version: '1.0.0', features: { pdf_reports: false } })).toBe(true);
    network({ 'GET /api/fees/terms': () => json(200, DEFAULT_TERMS), 'GET /api/fees': () => json(200, NO_FEES) });
    show(false);
    await screen.findByText('Default: 25 % performance fee, monthly, on equity');
    expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
  });
});

describe('FeesPanel: fee entries', () => {
  it('lists the charges and adjustments of the period with their arithmetic, counts the daily accruals and totals each kind', async () => {
    const sent = network({ 'GET /api/fees/terms': () => json(200, DEFAULT_TERMS), 'GET /api/fees': () => json(200, FEES) });
    show(false);
    const list = await screen.findByRole('list', { name: 'Fees charged' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [volume, adjustment] = items as [HTMLElement, HTMLElement];
    expect(seen(volume.querySelector('.fees-entry-kind'))).toBe('Volume fee');
    expect(seen(volume.querySelector('.fees-entry-amount'))).toBe('0,60 €');
    expect(seen(volume.querySelector('.fees-entry-meta'))).toBe('02/11/2026 · period 2026-11');
    expect(seen(volume.querySelector('.fees-entry-note'))).toBe('30 USD per million × 20,000.00 USD = 0.60 USD = 0.60 EUR');
    expect(seen(adjustment.querySelector('.fees-entry-kind'))).toBe('Performance feeAdjustment');
    expect(within(adjustment).getByText('Adjustment')).toBeTruthy();
    expect(seen(adjustment.querySelector('.fees-entry-amount'))).toBe('-12,00 €');
    expect(seen(adjustment.querySelector('.fees-entry-meta'))).toBe('03/11/2026 · period 2026-10');

    expect(screen.getByText('3 daily management accruals: 1,64 € in all')).toBeTruthy();
    const totals = screen.getByLabelText('Fee totals');
    expect(Object.fromEntries([...totals.querySelectorAll('.fees-total')].map((t) => [seen(t.querySelector('dt')), seen(t.querySelector('dd'))]))).toEqual({
      'Performance fee charged': '-12,00 €',
      'Management fee charged': '0,00 € + 1,64 € accrued',
      'Volume fee charged': '0,60 €',
    });
    const feesCall = sent.find((s) => s.url.pathname === '/api/fees')!;
    expect(Object.fromEntries(feesCall.url.searchParams)).toEqual({ account: 'acc-1', period: '2026-11' });
  });

  it('asks for the fees of the period chosen', async () => {
    const sent = network({ 'GET /api/fees/terms': () => json(200, DEFAULT_TERMS), 'GET /api/fees': () => json(200, NO_FEES) });
    const user = userEvent.setup();
    show(false);
    expect(await screen.findByText('No fee in this period.')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Last month' }));
    await waitFor(() =>
      expect(sent.filter((s) => s.url.pathname === '/api/fees').map((s) => s.url.searchParams.get('period'))).toEqual(['2026-11', '2026-10']),
    );
  });
});
