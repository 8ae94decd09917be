// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MotionGlobalConfig } from 'framer-motion';
import { BAD_OFFSET, CHOOSE_FILE, offsetMinutes, StatementImport } from './statement-import.tsx';

beforeAll(() => {
  MotionGlobalConfig.skipAnimations = true;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const account = { account_id: 'acc-1', account: '5122470', account_name: 'CON Follower 03' };

/** The network answers once with this status and JSON; what was sent is kept. */
function answer(status: number, body: unknown) {
  const sent: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  });
  return sent;
}

async function openDialog() {
  // `accept` only suggests: a phone's picker lets any file through.
  const user = userEvent.setup({ applyAccept: false });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StatementImport account={account} />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Import statement' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import statement' });
  return { user, dialog, client };
}

/** A MetaTrader answer: one statement, booked into the account, no cash stated. */
const mt5Answer = {
  message: '',
  format: 'mt5-html',
  added: 0,
  updated: 0,
  skipped: 0,
  statements: [{ account: 'acc-1', booked: true, reason: null, base_currency: 'USD', base_rule: 'the report header', trades: 0, cash: [] }],
  warnings: [],
};

const report = () => new File(['<html>…</html>'], 'ReportHistory-5122470.html', { type: 'text/html' });

describe('offsetMinutes', () => {
  it.each([
    ['0', 0],
    ['', 0],
    ['2', 120],
    ['-5', -300],
    ['+3', 180],
    ['5.5', 330],
    ['5,75', 345],
    ['14', 840],
    ['-12', -720],
  ])('%j hours is %d minutes', (text, minutes) => {
    expect(offsetMinutes(text)).toBe(minutes);
  });
  it.each(['14.5', '-13', 'two', '2h', '1e1', '--2'])('%j is no offset', (text) => {
    expect(offsetMinutes(text)).toBeNull();
  });
});

describe('StatementImport', () => {
  it('uploads the file as it is, with the offset in minutes, and sums up what the import did with its warnings folded', async () => {
    const warnings = [1, 2, 3, 4].map((i) => `Row ${i}: deal ${i} of unknown type "x" was skipped.`);
    const sent = answer(200, { ...mt5Answer, message: 'Imported: 5 added, 1 updated, 3 skipped.', added: 5, updated: 1, skipped: 3, warnings });
    const { user, dialog, client } = await openDialog();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    expect(within(dialog).getByText('CON Follower 03')).toBeTruthy();
    // Both kinds of file are named, and the picker offers them.
    const picker = within(dialog).getByLabelText('Report file');
    expect(picker.getAttribute('accept')).toBe('.htm,.html,.xlsx,.xml');
    expect(within(dialog).getByText(/MetaTrader 5 trade history report .* Interactive Brokers Flex statement \(\.xml\), at most 20 MB\./)).toBeTruthy();
    const file = report();
    await user.upload(within(dialog).getByLabelText('Report file'), file);
    const offset = within(dialog).getByLabelText('Broker time offset (hours from UTC)');
    await user.clear(offset);
    await user.type(offset, '5.5');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const status = within(dialog).getByRole('status');
    expect(await within(status).findByText('Imported: 5 added, 1 updated, 3 skipped.')).toBeTruthy();
    expect(within(status).getByText('Read as MetaTrader 5 trade history report (HTML)')).toBeTruthy();
    expect(within(status).getByText('CON Follower 03 · 5122470')).toBeTruthy();
    expect(within(status).getByText('Base currency USD, from the report header · 0 fills booked')).toBeTruthy();
    const url = new URL(sent[0]!.url, 'http://localhost');
    expect(url.pathname).toBe('/api/accounts/import-statement');
    expect(Object.fromEntries(url.searchParams)).toEqual({ account: 'acc-1', utc_offset_minutes: '330' });
    expect(sent[0]!.init.method).toBe('POST');
    expect(sent[0]!.init.body).toBe(file);
    expect((sent[0]!.init.headers as Record<string, string>)['content-type']).toBe('application/octet-stream');
    // More than three warnings: under their count, closed.
    const details = status.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('4 warnings')).toBeTruthy();
    expect(within(details).getAllByRole('listitem', { hidden: true }).map((li) => li.textContent)).toEqual(warnings);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([['deals'], ['accounts']]);
  });

  it('shows a few warnings as they are', async () => {
    answer(200, { ...mt5Answer, warnings: ['Row 9: a deal without a deal number was skipped.'] });
    const { user, dialog } = await openDialog();
    await user.upload(within(dialog).getByLabelText('Report file'), report());
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    const status = within(dialog).getByRole('status');
    expect(await within(status).findByText('1 warning:')).toBeTruthy();
    expect(within(within(status).getByRole('list', { name: 'Warnings' })).getByRole('listitem').textContent).toBe('Row 9: a deal without a deal number was skipped.');
    expect(status.querySelector('details')).toBeNull();
  });

  it("shows the server's message for a file that is not a report", async () => {
    answer(400, { message: 'This file is not a MetaTrader 4 or 5 trade history report.' });
    const { user, dialog } = await openDialog();
    await user.upload(within(dialog).getByLabelText('Report file'), new File([new Uint8Array([0x89, 0x50])], 'photo.png'));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This file is not a MetaTrader 4 or 5 trade history report.');
    expect(within(dialog).getByRole('status').textContent).toBe('');
  });

  it('sends nothing without a file or with an offset off the globe', async () => {
    const sent = answer(200, {});
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(CHOOSE_FILE);
    await user.upload(within(dialog).getByLabelText('Report file'), report());
    const offset = within(dialog).getByLabelText('Broker time offset (hours from UTC)');
    await user.clear(offset);
    await user.type(offset, '15');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(BAD_OFFSET);
    expect(sent).toEqual([]);
  });
});
