import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountKeys, accountQueries } from './accounts.ts';
import { alertQueries } from './alerts.ts';
import { bridgeQueries, startBridge, stopBridge } from './bridge.ts';
import { copyRuleKeys, copyRuleQueries, setAllowedPairs } from './copy-rules.ts';
import { dealQueries } from './deals.ts';
import { navQueries } from './nav.ts';
import { closeBySymbol, setTpSl } from './positions.ts';
import { rebateQueries } from './rebates.ts';
import { statsQueries } from './stats.ts';

describe('query keys', () => {
  it('name each query by its arguments: equal arguments the same key, different ones another', () => {
    expect(accountQueries.info().queryKey).toEqual(['accounts', 'info', null]);
    expect(accountQueries.info('SMA').queryKey).toEqual(['accounts', 'info', 'SMA']);
    expect(accountQueries.brokers().queryKey).toEqual(['accounts', 'brokers', null]);
    expect(accountQueries.maxDrawdown('A1').queryKey).toEqual(['accounts', 'max-drawdown', 'A1']);
    expect(accountQueries.historicalLosses().queryKey).toEqual(['accounts', 'historical-losses']);
    expect(dealQueries.historical({ account: 'A1', filterRebalancing: true, startDate: 100 }).queryKey).toEqual([
      'deals',
      'historical',
      { account: 'A1', filterRebalancing: true, startDate: 100 },
    ]);
    expect(dealQueries.historical({ account: 'A1', filterRebalancing: false }).queryKey).toEqual([
      'deals',
      'historical',
      { account: 'A1', filterRebalancing: false, startDate: null },
    ]);
    expect(statsQueries.maeMfe('EURUSD').queryKey).toEqual(['stats', 'mae-mfe', 'EURUSD']);
    expect(rebateQueries.list({ portfolio: 'All', groupBy: 'broker' }).queryKey).toEqual([
      'rebates',
      'list',
      { portfolio: 'All', groupBy: 'broker' },
    ]);
    expect(navQueries.historical().queryKey).toEqual(['nav', 'historical', null]);
    expect(navQueries.historical('3.2025').queryKey).toEqual(['nav', 'historical', '3.2025']);
    expect(alertQueries.list().queryKey).toEqual(['alerts', 'list']);
    expect(copyRuleQueries.infos().queryKey).toEqual(['copy-rules', 'infos']);
    expect(bridgeQueries.status().queryKey).toEqual(['bridge', 'status']);
  });

  it('nest under their resource key, so invalidating the resource reaches them', () => {
    expect(accountQueries.info('SMA').queryKey.slice(0, 1)).toEqual(accountKeys.all());
    expect(copyRuleQueries.infos().queryKey.slice(0, 1)).toEqual(copyRuleKeys.all());
  });
});

describe('refetch and stale times (docs/product.md#calls, §9)', () => {
  it('account info and max drawdown refetch every 5 s', () => {
    expect(accountQueries.info().refetchInterval).toBe(5000);
    expect(accountQueries.maxDrawdown('A1').refetchInterval).toBe(5000);
  });

  it('historical deals refetch every 30 s and stay fresh 60 s', () => {
    const options = dealQueries.historical({ account: 'A1', filterRebalancing: true });
    expect(options.refetchInterval).toBe(30000);
    expect(options.staleTime).toBe(60000);
  });

  it('MAE/MFE refetch every 30 s and stay fresh 15 s', () => {
    expect(statsQueries.maeMfe('EURUSD').refetchInterval).toBe(30000);
    expect(statsQueries.maeMfe('EURUSD').staleTime).toBe(15000);
  });

  it('rebates refetch and stay fresh 5 min, not on focus, and only with a portfolio', () => {
    const options = rebateQueries.list({ portfolio: 'SMA', groupBy: 'account' });
    expect(options.refetchInterval).toBe(300000);
    expect(options.staleTime).toBe(300000);
    expect(options.refetchOnWindowFocus).toBe(false);
    expect(options.enabled).toBe(true);
    expect(rebateQueries.list({ portfolio: undefined, groupBy: 'account' }).enabled).toBe(false);
  });

  it('alerts refetch every 30 s and copy rules are polled every 2 s', () => {
    expect(alertQueries.list().refetchInterval).toBe(30000);
    expect(copyRuleQueries.infos().refetchInterval).toBe(2000);
  });

  it('account-bound queries wait for an account', () => {
    expect(accountQueries.maxDrawdown(undefined).enabled).toBe(false);
    expect(dealQueries.historical({ account: undefined, filterRebalancing: true }).enabled).toBe(false);
  });
});

describe('calls', () => {
  const fetchMock = vi.fn<typeof fetch>();

  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const respond = (status: number, body: unknown) => {
    fetchMock.mockImplementation(() => Promise.resolve(new Response(JSON.stringify(body), { status })));
    vi.stubGlobal('fetch', fetchMock);
  };
  const lastCall = () => {
    const call = fetchMock.mock.calls.at(-1);
    if (!call) throw new Error('fetch was not called');
    const [url, init] = call;
    return { url: typeof url === 'string' ? url : url instanceof URL ? url.href : url.url, init: init ?? {}, headers: (init?.headers ?? {}) as Record<string, string> };
  };
  const run = <T>(options: { queryFn?: unknown }): Promise<T> =>
    (options.queryFn as (ctx: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

  it('asks for the broker list with only_broker_name=true', async () => {
    respond(200, { data: [{ broker_name: 'IBKR', img_path: '', teiko_categories: [] }] });
    await expect(run(accountQueries.brokers('SMA'))).resolves.toEqual([
      { broker_name: 'IBKR', img_path: '', teiko_categories: [] },
    ]);
    expect(lastCall().url).toBe('/api/brokers/accounts/info?only_broker_name=true&portfolio=SMA');
  });

  it('sends historical-deal filters as query parameters', async () => {
    respond(200, { dealsStats: [] });
    await run(dealQueries.historical({ account: 'A1', filterRebalancing: true, startDate: 1700000000 }));
    expect(lastCall().url).toBe('/api/brokers/historical-deals?account=A1&filter_rebalancing=true&start_date=1700000000');
  });

  it('sends writes with a fresh Idempotency-Key each time', async () => {
    respond(200, { message: 'ok' });
    const body = { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD' } as const;
    await closeBySymbol(body);
    const first = lastCall().headers['Idempotency-Key'];
    await closeBySymbol(body);
    const second = lastCall().headers['Idempotency-Key'];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
    expect(lastCall().init.method).toBe('POST');
    expect(JSON.parse(lastCall().init.body as string)).toEqual(body);
    await startBridge({ idempotencyKey: 'retry-1' });
    expect(lastCall().headers['Idempotency-Key']).toBe('retry-1');
    expect(lastCall().url).toBe('/api/bridge/start');
    await stopBridge();
    expect(lastCall().url).toBe('/api/bridge/stop');
  });

  it('falls back to the docs/product.md#errors messages when the server gives none', async () => {
    respond(500, {});
    const tpSl = { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD', take_profit: 1.2, stop_loss: 1 } as const;
    await expect(setTpSl(tpSl)).rejects.toThrow('Update failed.');
    await expect(setAllowedPairs({ master_id: 'M1', new_allowed_pairs: ['EURUSD'] })).rejects.toThrow('Update failed.');
    await expect(closeBySymbol({ category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD' })).rejects.toThrow(
      'Failed to send close request.',
    );
  });

  it('prefers the server message', async () => {
    respond(404, { message: 'Position not found.' });
    await expect(
      setTpSl({ category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', take_profit: 1, stop_loss: 1.2 }),
    ).rejects.toThrow('Position not found.');
  });
});
