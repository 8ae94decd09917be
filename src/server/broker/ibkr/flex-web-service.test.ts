import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { FLEX_PATH, realIbkrReport, startFlexStandIn, type FlexStandIn, type FlexStandInOptions } from '../../../../tests/fake-ibkr/flex-stand-in.ts';
import { FlexServiceError, IBKR_FLEX_DEFAULT_URL, IBKR_FLEX_ERROR_CODES, fetchFlexStatement, type FlexFetchOptions } from './flex-web-service.ts';
import { realReportsPresent, realReportsTitle } from '../../../../tests/fixtures/real-reports.ts';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';

// The client against the local stand-in of IB's Flex Web Service, over real HTTP on loopback. Waits go
// through an injected sleep that records them and moves a fake clock: no test waits on the wall clock.

const TOKEN = '831407269551920384716205';
const QUERY = '800969';
const USER_AGENT = 'copytrade-monitor-test/1.0';
// The payload the stand-in serves: a genuine statement where the real reports are (a self-made one on a bare clone).
const KMI = realReportsPresent ? realIbkrReport('tradeznet_kmi.xml') : fixture('three-accounts.xml');

let standIns: FlexStandIn[] = [];
afterEach(async () => {
  await Promise.all(standIns.map((s) => s.close()));
  standIns = [];
});

async function standIn(options: FlexStandInOptions = {}): Promise<FlexStandIn> {
  const s = await startFlexStandIn({ queries: [{ token: TOKEN, queryId: QUERY, statement: KMI }], ...options });
  standIns.push(s);
  return s;
}

function clock() {
  let t = 1_700_000_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

function options(s: FlexStandIn, c = clock(), more: Partial<FlexFetchOptions> = {}): FlexFetchOptions {
  return { baseUrl: s.baseUrl, token: TOKEN, queryId: QUERY, userAgent: USER_AGENT, sleep: c.sleep, now: c.now, random: () => 0, ...more };
}

/** Every error a test caught: the last test holds them all to the rule that the token never shows. */
const caught: unknown[] = [];

async function failure(promise: Promise<unknown>): Promise<FlexServiceError> {
  try {
    await promise;
  } catch (e) {
    caught.push(e);
    if (e instanceof FlexServiceError) return e;
    throw e;
  }
  throw new Error('expected the fetch to fail');
}

const endpoints = (s: FlexStandIn) => s.requests.map((r) => r.endpoint);

describe('fetching a Flex statement', () => {
  it('defaults to the base address IB documents now', () => {
    expect(IBKR_FLEX_DEFAULT_URL).toBe('https://ndcdyn.interactivebrokers.com/AccountManagement/FlexWebService');
  });

  it.runIf(realReportsPresent).each(['tradeznet_kmi.xml', 'gabbersepp_TestForCoding.xml', 'pp_testIBFlexStatementFile01.xml', 'pp_testIBFlexStatementFile14.xml'])(
    realReportsTitle('returns the real statement %s byte for byte'),
    async (name) => {
      const statement = realIbkrReport(name);
      const s = await standIn({ queries: [{ token: TOKEN, queryId: QUERY, statement }] });
      const got = await fetchFlexStatement(options(s));
      expect(Buffer.from(got).equals(Buffer.from(statement))).toBe(true);
    },
  );

  it('asks SendRequest with the token, the query and v=3, then GetStatement at the answer’s Url with the reference code, with a User-Agent', async () => {
    const s = await standIn();
    const c = clock();
    const got = await fetchFlexStatement(options(s, c));
    expect(Buffer.from(got).equals(Buffer.from(KMI))).toBe(true);

    const [send, get] = s.requests;
    expect(endpoints(s)).toEqual(['SendRequest', 'GetStatement']);
    expect(send?.path).toBe(`${FLEX_PATH}/SendRequest`);
    expect(send?.search).toBe(`?t=${TOKEN}&q=${QUERY}&v=3`);
    expect(get?.path).toBe(`${FLEX_PATH}/GetStatement`);
    expect(get?.params.q).toMatch(/^\d{10}$/);
    expect(get?.search).toBe(`?t=${TOKEN}&q=${get?.params.q}&v=3`);
    expect(s.requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);
    // One wait, before the first GetStatement: IB generates the statement after answering.
    expect(c.waits).toEqual([2000]);
  });

  it('takes a base address with a trailing slash', async () => {
    const s = await standIn();
    await fetchFlexStatement({ ...options(s), baseUrl: `${s.baseUrl}/` });
    expect(s.requests[0]?.path).toBe(`${FLEX_PATH}/SendRequest`);
  });

  it('fetches GetStatement beside SendRequest when the answer names no Url', async () => {
    const s = await standIn({ statementUrl: null });
    const got = await fetchFlexStatement(options(s));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(s.requests.map((r) => r.path)).toEqual([`${FLEX_PATH}/SendRequest`, `${FLEX_PATH}/GetStatement`]);
  });

  it('follows a Url under interactivebrokers.com (e.g. the gdcdyn host IB names today)', async () => {
    const s = await standIn({ statementUrl: 'https://gdcdyn.interactivebrokers.com/AccountManagement/FlexWebService/GetStatement' });
    const asked: string[] = [];
    // No request leaves this machine: IB's host is served by the stand-in.
    const viaStandIn: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      asked.push(`${url.protocol}//${url.host}${url.pathname}`);
      if (url.hostname === 'gdcdyn.interactivebrokers.com') return fetch(`${s.origin}${url.pathname}${url.search}`, init);
      return fetch(url, init);
    };
    const got = await fetchFlexStatement(options(s, clock(), { fetch: viaStandIn }));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(asked).toEqual([`${s.origin}${FLEX_PATH}/SendRequest`, 'https://gdcdyn.interactivebrokers.com/AccountManagement/FlexWebService/GetStatement']);
    expect(s.requests[1]?.search).toMatch(new RegExp(`^\\?t=${TOKEN}&q=\\d+&v=3$`));
  });
});

describe('temporary answers', () => {
  it('polls GetStatement again while IB says the statement is being generated (1019 twice), backing off', async () => {
    const s = await standIn({
      getStatement: [{ answer: 'error', code: 1019, status: 'Warn' }, { answer: 'error', code: 1019 }, { answer: 'statement' }],
    });
    const c = clock();
    const got = await fetchFlexStatement(options(s, c));
    expect(Buffer.from(got).equals(Buffer.from(KMI))).toBe(true);
    expect(endpoints(s)).toEqual(['SendRequest', 'GetStatement', 'GetStatement', 'GetStatement']);
    // The same reference code each time: 1019 asks to poll, not to request the statement anew.
    expect(new Set(s.requests.slice(1).map((r) => r.params.q)).size).toBe(1);
    expect(c.waits).toEqual([2000, 2000, 4000]);
  });

  it('waits at least ten seconds when the token is throttled (1018), then asks again', async () => {
    const s = await standIn({ sendRequest: [{ answer: 'error', code: 1018 }] });
    const c = clock();
    const got = await fetchFlexStatement(options(s, c));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(endpoints(s)).toEqual(['SendRequest', 'SendRequest', 'GetStatement']);
    expect(c.waits).toEqual([10_000, 2000]);
  });

  it.each([1001, 1004, 1005, 1006, 1007, 1008, 1009, 1021])('retries %i, which IB words "try again shortly"', async (code) => {
    const s = await standIn({ getStatement: [{ answer: 'error', code }] });
    const got = await fetchFlexStatement(options(s));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(endpoints(s)).toEqual(['SendRequest', 'GetStatement', 'GetStatement']);
  });

  it('jitters each wait down by up to half, from the injected random', async () => {
    const s = await standIn({ getStatement: [1, 2, 3].map(() => ({ answer: 'error', code: 1019 }) as const) });
    const c = clock();
    await fetchFlexStatement(options(s, c, { random: () => 0.5 }));
    expect(c.waits).toEqual([2000, 1500, 3000, 6000]);
  });

  it('caps the waits, and never waits under a second (IB allows one request a second)', async () => {
    const s = await standIn({ getStatement: Array.from({ length: 6 }, () => ({ answer: 'error', code: 1019 }) as const) });
    const c = clock();
    await fetchFlexStatement(options(s, c, { maxDelayMs: 5000 }));
    expect(c.waits).toEqual([2000, 2000, 4000, 5000, 5000, 5000, 5000]);

    const quick = await standIn({ getStatement: [{ answer: 'error', code: 1019 }] });
    const q = clock();
    await fetchFlexStatement(options(quick, q, { baseDelayMs: 100 }));
    expect(q.waits).toEqual([1000, 1000]);
  });

  it('retries an HTTP 5xx until it clears, on either step', async () => {
    const s = await standIn({
      sendRequest: [{ answer: 'http', status: 502 }],
      getStatement: [{ answer: 'http', status: 503 }, { answer: 'http', status: 500 }],
    });
    const c = clock();
    const got = await fetchFlexStatement(options(s, c));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(endpoints(s)).toEqual(['SendRequest', 'SendRequest', 'GetStatement', 'GetStatement', 'GetStatement']);
    expect(c.waits).toEqual([2000, 2000, 2000, 4000]);
  });

  it('retries a dropped connection and a request that never answers (per-request timeout)', async () => {
    const s = await standIn({ sendRequest: [{ answer: 'drop' }], getStatement: [{ answer: 'hang' }] });
    const got = await fetchFlexStatement(options(s, clock(), { timeoutMs: 300 }));
    expect(got.byteLength).toBe(KMI.byteLength);
    expect(endpoints(s)).toEqual(['SendRequest', 'SendRequest', 'GetStatement', 'GetStatement']);
  });

  it('asks again for a statement cut short (no closing tag)', async () => {
    const s = await standIn({ getStatement: [{ answer: 'body', body: KMI.subarray(0, 5000) }] });
    const got = await fetchFlexStatement(options(s));
    expect(Buffer.from(got).equals(Buffer.from(KMI))).toBe(true);
  });

  it('gives up after the total number of attempts, as a temporary failure with IB’s last code', async () => {
    const s = await standIn({ getStatement: Array.from({ length: 10 }, () => ({ answer: 'error', code: 1019 }) as const) });
    const c = clock();
    const error = await failure(fetchFlexStatement(options(s, c, { maxAttempts: 4 })));
    expect(error).toMatchObject({ code: 1019, temporary: true, kind: 'unavailable' });
    expect(error.message).toMatch(/gave up after 4 attempts in 8 s; the last: IBKR Flex GetStatement answered 1019: Statement generation in progress/);
    expect(s.requests).toHaveLength(4);
    expect(c.waits).toEqual([2000, 2000, 4000]);
  });

  it('keeps one attempt for GetStatement: SendRequest alone never uses them all', async () => {
    const s = await standIn({ sendRequest: Array.from({ length: 5 }, () => ({ answer: 'error', code: 1018 }) as const) });
    const error = await failure(fetchFlexStatement(options(s, clock(), { maxAttempts: 3 })));
    expect(error).toMatchObject({ code: 1018, temporary: true, kind: 'throttled' });
    expect(error.message).toMatch(/gave up after 2 attempts/);
    expect(endpoints(s)).toEqual(['SendRequest', 'SendRequest']);
  });

  it('gives up on a service that cannot be reached, without the token in the network error', async () => {
    const s = await standIn();
    const baseUrl = s.baseUrl;
    await s.close();
    const error = await failure(fetchFlexStatement({ ...options(s, clock(), { maxAttempts: 2 }), baseUrl }));
    expect(error).toMatchObject({ code: null, temporary: true, kind: 'unavailable' });
    expect(error.message).toMatch(/network error/);
  });
});

describe('answers that fail at once', () => {
  it.each([
    [1012, 'token_expired', 'Token has expired.'],
    [1015, 'token_invalid', 'Token is invalid.'],
    [1013, 'ip_restricted', 'IP restriction.'],
    [1014, 'query_invalid', 'Query is invalid.'],
    [1020, 'query_invalid', 'Invalid request or unable to validate request.'],
    [1010, 'query_invalid', 'Legacy Flex Queries are no longer supported.'],
    [1011, 'other', 'Service account is inactive.'],
    [1003, 'other', 'Statement is not available.'],
  ] as const)('%i on SendRequest: %s, no retry', async (code, kind, words) => {
    const s = await standIn({ sendRequest: [{ answer: 'error', code }] });
    const c = clock();
    const error = await failure(fetchFlexStatement(options(s, c)));
    expect(error).toBeInstanceOf(FlexServiceError);
    expect(error).toMatchObject({ code, kind, temporary: false, name: 'FlexServiceError' });
    expect(error.message).toContain(`SendRequest answered ${code}: ${words}`);
    expect(endpoints(s)).toEqual(['SendRequest']);
    expect(c.waits).toEqual([]);
  });

  it('reads a token IB does not know (1015) and a query the token does not have (1014) from the stand-in’s own checks', async () => {
    const s = await standIn();
    expect(await failure(fetchFlexStatement({ ...options(s), token: '999999999999999999999999' }))).toMatchObject({ code: 1015, kind: 'token_invalid' });
    expect(await failure(fetchFlexStatement({ ...options(s), queryId: '123' }))).toMatchObject({ code: 1014, kind: 'query_invalid' });
  });

  it('fails at once on a lasting error from GetStatement (1017 reference code invalid)', async () => {
    const s = await standIn({ getStatement: [{ answer: 'error', code: 1017 }] });
    const error = await failure(fetchFlexStatement(options(s)));
    expect(error).toMatchObject({ code: 1017, kind: 'other', temporary: false });
    expect(endpoints(s)).toEqual(['SendRequest', 'GetStatement']);
  });

  it('takes a code IB’s table lacks as lasting, in IB’s words', async () => {
    const s = await standIn({ sendRequest: [{ answer: 'error', code: 1099, message: 'Something new.' }] });
    const error = await failure(fetchFlexStatement(options(s)));
    expect(error).toMatchObject({ code: 1099, kind: 'other', temporary: false });
    expect(error.message).toContain('Something new.');
  });

  it('lists every code of IB’s table with its words, and which are temporary', () => {
    const temporary = Object.entries(IBKR_FLEX_ERROR_CODES)
      .filter(([, c]) => c.temporary)
      .map(([code]) => Number(code));
    expect(temporary).toEqual([1001, 1004, 1005, 1006, 1007, 1008, 1009, 1018, 1019, 1021]);
    expect(Object.keys(IBKR_FLEX_ERROR_CODES).map(Number)).toEqual([1001, ...Array.from({ length: 19 }, (_, i) => 1003 + i)]);
  });
});

describe('addresses and answers that are refused', () => {
  it('refuses a Url on another host: the token is never sent there', async () => {
    const elsewhere = await standIn({ host: '127.0.0.2' });
    const s = await standIn({ statementUrl: `${elsewhere.baseUrl}/GetStatement` });
    const error = await failure(fetchFlexStatement(options(s)));
    expect(error).toMatchObject({ code: null, kind: 'bad_answer', temporary: false });
    expect(error.message).toContain('127.0.0.2');
    expect(elsewhere.requests).toEqual([]);
    expect(endpoints(s)).toEqual(['SendRequest']);
  });

  it.each([
    ['a look-alike of IB’s domain', 'https://gdcdyn.interactivebrokers.com.evil.example/GetStatement', /host gdcdyn\.interactivebrokers\.com\.evil\.example/],
    ['a foreign host over https', 'https://evil.example/AccountManagement/FlexWebService/GetStatement', /host evil\.example/],
    ['IB’s host over plain http', 'http://gdcdyn.interactivebrokers.com/AccountManagement/FlexWebService/GetStatement', /not https/],
    ['credentials in the address', 'https://user:pass@gdcdyn.interactivebrokers.com/GetStatement', /credentials/],
    ['no address at all', 'not a url', /no valid address/],
  ])('refuses %s', async (_what, url, message) => {
    const s = await standIn({ statementUrl: url });
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const error = await failure(fetchFlexStatement(options(s, clock(), { fetch: recording })));
    expect(error).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(error.message).toMatch(message);
    expect(asked).toHaveLength(1);
  });

  it('follows a redirect on the same host and refuses one to another host', async () => {
    const elsewhere = await standIn({ host: '127.0.0.2' });
    const s = await standIn();
    s.script('GetStatement', { answer: 'redirect', location: `${FLEX_PATH}/GetStatement?t=${TOKEN}&q=0&v=3` });
    // The redirect keeps its own query: reference 0 is unknown to IB, which says so (1017).
    expect(await failure(fetchFlexStatement(options(s)))).toMatchObject({ code: 1017 });

    s.script('GetStatement', { answer: 'redirect', location: `${elsewhere.origin}${FLEX_PATH}/GetStatement?t=${TOKEN}` });
    const error = await failure(fetchFlexStatement(options(s)));
    expect(error).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(error.message).toMatch(/redirects to .*127\.0\.0\.2/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses a statement larger than maxBytes by its Content-Length', async () => {
    const s = await standIn();
    const error = await failure(fetchFlexStatement(options(s, clock(), { maxBytes: KMI.byteLength - 1 })));
    expect(error).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(error.message).toMatch(new RegExp(`larger than the ${KMI.byteLength - 1} bytes allowed`));
  });

  it('stops reading a body without a length once it passes maxBytes (the stand-in’s never ends)', async () => {
    const s = await standIn({ getStatement: [{ answer: 'endless', head: '<FlexQueryResponse queryName="Endless" type="AF">' }] });
    const error = await failure(fetchFlexStatement(options(s, clock(), { maxBytes: 1024 * 1024 })));
    expect(error).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(error.message).toMatch(/larger than the 1048576 bytes allowed/);
  });

  it('refuses an answer that is not XML (a query set to CSV), and an HTML page', async () => {
    const s = await standIn({
      getStatement: [{ answer: 'body', body: '"ClientAccountID","Symbol","Quantity"\n"U1234567","KMI","100"\n', contentType: 'text/plain' }],
    });
    const csv = await failure(fetchFlexStatement(options(s)));
    expect(csv).toMatchObject({ kind: 'bad_answer', temporary: false, code: null });
    expect(csv.message).toMatch(/not XML .*format must be XML/);

    s.script('GetStatement', { answer: 'body', body: '<html><body>Maintenance</body></html>', contentType: 'text/html' });
    const html = await failure(fetchFlexStatement(options(s)));
    expect(html).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(html.message).toMatch(/neither a statement nor IB’s answer|neither a statement nor IB's answer/);
  });

  it('refuses a 4xx that is not IB’s envelope, without retrying', async () => {
    const s = await standIn({ sendRequest: [{ answer: 'http', status: 404 }] });
    const error = await failure(fetchFlexStatement(options(s)));
    expect(error).toMatchObject({ kind: 'bad_answer', temporary: false });
    expect(error.message).toMatch(/HTTP 404/);
    expect(s.requests).toHaveLength(1);
  });

  it('reads an envelope with an XML declaration and a lower-case <url>, as IB’s own example writes it', async () => {
    const s = await standIn();
    await fetchFlexStatement(options(s));
    const code = s.requests[1]?.params.q ?? '';
    const written = (url: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<FlexStatementResponse timestamp="28 August, 2012 10:37 AM EDT">\n<Status>Success</Status>\n<ReferenceCode>${code}</ReferenceCode>\n<url>${url}</url>\n</FlexStatementResponse>\n`;

    s.script('SendRequest', { answer: 'body', body: written(`${s.baseUrl}/GetStatement`) });
    const got = await fetchFlexStatement(options(s));
    expect(Buffer.from(got).equals(Buffer.from(KMI))).toBe(true);
    expect(s.requests[3]?.params.q).toBe(code);

    // The lower-case element is read, not skipped: a foreign host in it is refused.
    s.script('SendRequest', { answer: 'body', body: written('https://evil.example/GetStatement') });
    expect((await failure(fetchFlexStatement(options(s)))).message).toMatch(/host evil\.example/);
  });
});

describe('options', () => {
  it('refuses empty credentials and a user agent left out, naming the field and not the token', async () => {
    const s = await standIn();
    for (const field of ['token', 'queryId', 'userAgent'] as const) {
      await expect(fetchFlexStatement({ ...options(s), [field]: ' ' })).rejects.toThrow(new RegExp(`${field} is empty`));
    }
    await expect(fetchFlexStatement({ ...options(s), maxAttempts: 1 })).rejects.toThrow(/maxAttempts/);
    await expect(fetchFlexStatement({ ...options(s), baseUrl: 'ftp://example.com' })).rejects.toThrow(/http\(s\)/);
    expect(s.requests).toEqual([]);
  });

  it('stops when its signal aborts during a wait, with the signal’s reason', async () => {
    const s = await standIn({ getStatement: [{ answer: 'error', code: 1019 }, { answer: 'error', code: 1019 }] });
    const controller = new AbortController();
    const c = clock();
    const sleep = async (ms: number) => {
      await c.sleep(ms);
      if (c.waits.length === 2) controller.abort(new Error('shutting down'));
    };
    await expect(fetchFlexStatement(options(s, c, { sleep, signal: controller.signal }))).rejects.toThrow('shutting down');
    expect(endpoints(s)).toEqual(['SendRequest', 'GetStatement']);
  });
});

describe('the token', () => {
  it('is taken out of what IB or a proxy echoes back', async () => {
    const s = await standIn({
      sendRequest: [{ answer: 'error', code: 1015, message: `Token ${TOKEN} is invalid.` }],
    });
    const echoed = await failure(fetchFlexStatement(options(s)));
    expect(echoed.message).toContain('Token [token] is invalid.');

    s.script('SendRequest', { answer: 'body', body: `oops: /SendRequest?t=${TOKEN}&q=${QUERY}`, contentType: 'text/plain' });
    const page = await failure(fetchFlexStatement(options(s)));
    expect(page.message).toContain('[token]');

    s.script('SendRequest', { answer: 'reference', url: `https://${TOKEN}.evil.example/GetStatement` });
    const host = await failure(fetchFlexStatement(options(s)));
    expect(host.message).toContain('[token].evil.example');
  });

  it('appears in no error any test caught: message, stack, or inspection', () => {
    expect(caught.length).toBeGreaterThan(30);
    for (const e of caught) {
      const error = e as Error;
      for (const text of [error.message, String(error.stack), String(error), inspect(error, { depth: 5 }), JSON.stringify({ ...error })]) {
        expect(text).not.toContain(TOKEN);
      }
    }
  });
});
