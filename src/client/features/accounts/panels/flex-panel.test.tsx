// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FlexStatus } from '#shared/contract/flex.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { FlexPanel } from './flex-panel.tsx';
import { FLEX_SAVED } from './flex-settings-form.tsx';

// Friday 27 November 2026, 10:00 UTC.
const NOW = new Date('2026-11-27T10:00:00Z');
const LAST_FETCH = Date.UTC(2026, 10, 27, 6, 5) / 1000;
const NEXT_FETCH = Date.UTC(2026, 10, 28, 6, 0) / 1000;

beforeEach(() => {
  // Only the clock's date: React, TanStack Query and user-event keep their real timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const NONE: FlexStatus = {
  account_id: 'ib-1',
  token_set: false,
  query_id: null,
  token_expires: null,
  last_status: null,
  last_error: null,
  last_fetch_at: null,
  next_fetch_at: null,
};
const SET: FlexStatus = { ...NONE, token_set: true, query_id: '912345', token_expires: '2027-05-27', last_status: 'ok', last_fetch_at: LAST_FETCH, next_fetch_at: NEXT_FETCH };

const FETCHED = {
  message: 'Imported: 3 added, 0 updated, 0 skipped.',
  format: 'ibkr-flex',
  added: 3,
  updated: 0,
  skipped: 0,
  statements: [
    { account: 'ib-1', booked: true, reason: null, base_currency: 'EUR', base_rule: 'AccountInformation@currency', trades: 3, cash: [{ currency: 'USD', cash_start: 1000, cash_end: 300, realized: 0, commissions: 0 }] },
  ],
  warnings: [],
};

type Reply = { status: number; body: unknown };
interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A stand-in for the Flex routes: the status as `state` holds it, and each write answered by
 * `replies[method]` (a function of the body, so a PUT can change the state the next GET reads).
 */
function serve(start: FlexStatus, replies: Partial<Record<'PUT' | 'DELETE' | 'POST', (body: unknown, state: { status: FlexStatus }) => Reply>> = {}) {
  const state = { status: start };
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const path = new URL(url, 'http://localhost').pathname;
    sent.push({ method, path, body });
    const reply = method === 'GET' ? { status: 200, body: { data: state.status } } : (replies[method as 'PUT'] ?? (() => ({ status: 500, body: {} })))(body, state);
    return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } }));
  });
  return { sent, state };
}

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FlexPanel accountId="ib-1" login="U1234567" accountName="IB Equities" />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), client, panel: screen.getByRole('region', { name: 'Interactive Brokers Flex' }) };
}

/** The status tiles, label → value. */
async function statusFigures(): Promise<Record<string, string>> {
  const list = await screen.findByLabelText('Flex status');
  return Object.fromEntries([...list.querySelectorAll('.figure')].map((f): [string, string] => [f.querySelector('dt')?.textContent ?? '', f.querySelector('dd')?.textContent ?? '']));
}

describe('FlexPanel', () => {
  it('without a token: says so, opens the form, and Fetch now waits for one', async () => {
    serve(NONE);
    const { panel } = show();
    expect(await statusFigures()).toEqual({ Token: 'Not set', 'Query ID': 'Not set', 'Token expires': 'Not given', 'Last fetch': 'Never', 'Next fetch': 'None planned' });
    const token = within(panel).getByLabelText('Flex Web Service token');
    expect(token.getAttribute('type')).toBe('password');
    expect(token.getAttribute('autocomplete')).toBe('off');
    expect(within(panel).getByRole<HTMLButtonElement>('button', { name: 'Fetch now' }).disabled).toBe(true);
    expect(within(panel).getByText('Set a token and a query ID first.')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Remove token' })).toBeNull();
  });

  it('sets the token, query id and expiry, then shows it set without ever showing the token', async () => {
    const { sent } = serve(NONE, { PUT: (_body, state) => ((state.status = SET), { status: 200, body: { data: SET } }) });
    const { user, panel, client } = show();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await user.type(await within(panel).findByLabelText('Flex Web Service token'), 'AbC123def456GhI789');
    await user.type(within(panel).getByLabelText('Query ID'), '912345');
    await user.type(within(panel).getByLabelText('Token expires (optional)'), '2027-05-27');
    await user.click(within(panel).getByRole('button', { name: 'Save Flex settings' }));

    expect(await within(panel).findByText(FLEX_SAVED)).toBeTruthy();
    const put = sent.find((s) => s.method === 'PUT')!;
    expect(put.path).toBe('/api/accounts/ib-1/flex');
    expect(put.body).toEqual({ token: 'AbC123def456GhI789', query_id: '912345', token_expires: '2027-05-27' });
    expect(invalidate.mock.calls.map(([f]) => f?.queryKey)).toEqual([['flex']]);
    // The field is emptied once the server has the token, and the page never prints it.
    expect(within(panel).getByLabelText<HTMLInputElement>('Flex Web Service token').value).toBe('');
    expect(panel.textContent).not.toContain('AbC123def456GhI789');
    expect(await statusFigures()).toMatchObject({ Token: 'Set', 'Query ID': '912345', 'Token expires': '27/05/2027', 'Last fetch': `OK · ${formatDateFr(LAST_FETCH)}` });
    expect(within(panel).getByRole('button', { name: 'Replace token' }).getAttribute('aria-expanded')).toBe('true');
  });

  it("refuses a form the contract refuses, with the contract's words, and the server's own refusal in its words", async () => {
    const { sent } = serve(NONE, { PUT: () => ({ status: 409, body: { message: 'No key to seal Flex tokens is configured (FLEX_TOKEN_KEY).' } }) });
    const { user, panel } = show();
    const token = await within(panel).findByLabelText('Flex Web Service token');
    await user.type(token, 'short');
    await user.type(within(panel).getByLabelText('Query ID'), '912345');
    await user.click(within(panel).getByRole('button', { name: 'Save Flex settings' }));
    expect(within(panel).getByRole('alert').textContent).toBe('Token must be the Flex Web Service token Client Portal shows (10 to 64 letters and digits).');
    expect(sent.filter((s) => s.method !== 'GET')).toEqual([]);

    await user.clear(token);
    await user.type(token, 'AbC123def456GhI789');
    await user.click(within(panel).getByRole('button', { name: 'Save Flex settings' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('No key to seal Flex tokens is configured (FLEX_TOKEN_KEY).');
  });

  it('fetches now and sums up what was booked, as the import does; then reads the books again', async () => {
    const { sent } = serve(SET, { POST: () => ({ status: 200, body: FETCHED }) });
    const { user, panel, client } = show();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await user.click(await within(panel).findByRole('button', { name: 'Fetch now' }));
    const status = within(panel).getAllByRole('status').find((s) => s.classList.contains('ibflex-result'))!;
    expect(await within(status).findByText('Imported: 3 added, 0 updated, 0 skipped.')).toBeTruthy();
    expect(within(status).getByText('IB Equities · U1234567')).toBeTruthy();
    expect(within(status).getByText('Base currency EUR, from its account information · 3 fills booked')).toBeTruthy();
    expect(sent.find((s) => s.method === 'POST')?.path).toBe('/api/accounts/ib-1/flex/fetch');
    expect(invalidate.mock.calls.map(([f]) => f?.queryKey)).toEqual([['deals'], ['accounts'], ['flex']]);
  });

  it("shows IB's refusal of a fetch in its words, and a failed last fetch with its error", async () => {
    const failed: FlexStatus = { ...SET, token_expires: '2026-11-26', last_status: 'failed', last_error: 'Token has expired.' };
    serve(failed, { POST: () => ({ status: 409, body: { message: 'Interactive Brokers refused the Flex request: Token has expired. (1012)' } }) });
    const { user, panel } = show();
    expect(await statusFigures()).toMatchObject({ 'Token expires': '26/11/2026 (expired)', 'Last fetch': `Failed: the settings need a change · ${formatDateFr(LAST_FETCH)}` });
    expect(within(panel).getByText('Token has expired.')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Fetch now' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('Interactive Brokers refused the Flex request: Token has expired. (1012)');
  });

  it('removes the token after a second button says what it does', async () => {
    const { sent } = serve(SET, { DELETE: (_b, state) => ((state.status = NONE), { status: 200, body: { message: 'The Flex token of U1234567 is removed: no more daily fetches.' } }) });
    const { user, panel } = show();
    await user.click(await within(panel).findByRole('button', { name: 'Remove token' }));
    const confirm = within(panel).getByRole('group', { name: 'Remove the Flex token' });
    expect(within(confirm).getByText(/Remove the Flex token of IB Equities\?/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(panel).findByText('The Flex token of U1234567 is removed: no more daily fetches.')).toBeTruthy();
    expect(sent.find((s) => s.method === 'DELETE')?.path).toBe('/api/accounts/ib-1/flex');
    await waitFor(async () => expect(await statusFigures()).toMatchObject({ Token: 'Not set' }));
  });
});
