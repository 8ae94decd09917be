import { setTimeout as delay } from 'node:timers/promises';
import { readMarkup } from '#shared/statements/markup.ts';

/**
 * A client of Interactive Brokers' Flex Web Service (version 3): it asks IB to generate a saved Flex
 * Query (SendRequest, with the account's token and the query id), then fetches the statement with the
 * reference code IB answers (GetStatement), polling while IB says it is still at work. It returns the
 * statement's XML bytes untouched; reading them is src/shared/statements/ibkr/'s business.
 *
 * The token is a bearer secret (IB sends no other credential): it goes only to the base address and to
 * a statement address under the same host or interactivebrokers.com, and never into a message.
 */

/** The base address IB documents today (the older gdcdyn host and its /Universal/servlet paths are legacy): the configuration's default. */
export { IBKR_FLEX_DEFAULT_URL } from '#server/config.ts';

export type FlexErrorKind =
  | 'token_expired'
  | 'token_invalid'
  | 'ip_restricted'
  | 'query_invalid'
  | 'throttled'
  | 'unavailable'
  | 'bad_answer'
  | 'other';

export interface FlexErrorCode {
  /** IB's ErrorMessage for the code, as its error table prints it. */
  readonly words: string;
  /** IB asks to try again shortly: the same request may succeed later. */
  readonly temporary: boolean;
  readonly kind: FlexErrorKind;
}

/**
 * The ErrorCodes of IB's Flex Web Service v3 error table, which SendRequest and GetStatement share.
 * The codes IB words "Please try again shortly" are temporary; 1002 is not in IB's table.
 */
export const IBKR_FLEX_ERROR_CODES: Readonly<Record<number, FlexErrorCode>> = {
  1001: { words: 'Statement could not be generated at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1003: { words: 'Statement is not available.', temporary: false, kind: 'other' },
  1004: { words: 'Statement is incomplete at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1005: { words: 'Settlement data is not ready at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1006: { words: 'FIFO P/L data is not ready at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1007: { words: 'MTM P/L data is not ready at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1008: { words: 'MTM and FIFO P/L data is not ready at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1009: {
    words: 'The server is under heavy load. Statement could not be generated at this time. Please try again shortly.',
    temporary: true,
    kind: 'unavailable',
  },
  1010: { words: 'Legacy Flex Queries are no longer supported. Please convert over to Activity Flex.', temporary: false, kind: 'query_invalid' },
  1011: { words: 'Service account is inactive.', temporary: false, kind: 'other' },
  1012: { words: 'Token has expired.', temporary: false, kind: 'token_expired' },
  1013: { words: 'IP restriction.', temporary: false, kind: 'ip_restricted' },
  1014: { words: 'Query is invalid.', temporary: false, kind: 'query_invalid' },
  1015: { words: 'Token is invalid.', temporary: false, kind: 'token_invalid' },
  // IB's table says "Account in invalid." (sic).
  1016: { words: 'Account in invalid.', temporary: false, kind: 'other' },
  1017: { words: 'Reference code is invalid.', temporary: false, kind: 'other' },
  // The table adds: "Limited to one request per second, 10 requests per minute (per token)."
  1018: { words: 'Too many requests have been made from this token. Please try again shortly.', temporary: true, kind: 'throttled' },
  1019: { words: 'Statement generation in progress. Please try again shortly.', temporary: true, kind: 'unavailable' },
  1020: { words: 'Invalid request or unable to validate request.', temporary: false, kind: 'query_invalid' },
  1021: { words: 'Statement could not be retrieved at this time. Please try again shortly.', temporary: true, kind: 'unavailable' },
};

export interface FlexFetchOptions {
  /** Where SendRequest lives: IBKR_FLEX_DEFAULT_URL, or a stand-in's address in tests. */
  baseUrl: string;
  token: string;
  queryId: string;
  /** IB requires a User-Agent naming the technology and its version (e.g. `copytrade-monitor/1.0.9`). */
  userAgent: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Source of the backoff's jitter, in [0, 1). */
  random?: () => number;
  /** HTTP requests in all, SendRequest and GetStatement together (at least 2). */
  maxAttempts?: number;
  /** For one request, its body included. */
  timeoutMs?: number;
  /** The largest answer read; a larger one is refused without being read to its end. */
  maxBytes?: number;
  /** The first wait (before the first GetStatement, and before the first retry of a step); it doubles up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/** Why the statement could not be had. The message never contains the token. */
export class FlexServiceError extends Error {
  /** IB's ErrorCode, when IB answered one. */
  readonly code: number | null;
  /** Trying again later may succeed (every attempt was used on answers IB calls temporary, or the network failed). */
  readonly temporary: boolean;
  readonly kind: FlexErrorKind;

  constructor(message: string, details: { code: number | null; temporary: boolean; kind: FlexErrorKind }) {
    super(message);
    this.name = 'FlexServiceError';
    this.code = details.code;
    this.temporary = details.temporary;
    this.kind = details.kind;
  }
}

const DEFAULT_MAX_ATTEMPTS = 10;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
const DEFAULT_BASE_DELAY_MS = 2_000;
const DEFAULT_MAX_DELAY_MS = 60_000;
/** IB allows one request a second per token (error 1018): no wait is shorter. */
const MIN_WAIT_MS = 1_000;
/** …and ten a minute: once throttled, the token waits a tenth of a minute and more. */
const THROTTLED_WAIT_MS = 10_000;
/** A wait is cut by up to half at random, so that several accounts' retries drift apart. */
const JITTER = 0.5;
const MAX_REDIRECTS = 3;
const IB_DOMAIN = 'interactivebrokers.com';

type Step = 'SendRequest' | 'GetStatement';

interface Run {
  readonly base: URL;
  readonly token: string;
  readonly userAgent: string;
  readonly fetch: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  readonly random: () => number;
  readonly maxAttempts: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly signal: AbortSignal | undefined;
  attempts: number;
}

/** Fetches the saved Flex Query `queryId` as IB generates it now: the statement's XML bytes (a `<FlexQueryResponse>` document). */
export async function fetchFlexStatement(o: FlexFetchOptions): Promise<Uint8Array> {
  const run = start(o);
  try {
    return await fetchWith(run, o.queryId);
  } catch (e) {
    // Every message is written without the token; this catches what an answer could smuggle in (a host name).
    if (e instanceof FlexServiceError && redact(e.message, run.token) !== e.message) {
      throw new FlexServiceError(redact(e.message, run.token), e);
    }
    throw e;
  }
}

async function fetchWith(run: Run, queryId: string): Promise<Uint8Array> {
  run.signal?.throwIfAborted();
  const started = run.now();

  const sendUrl = beside(run.base, 'SendRequest');
  // SendRequest keeps one attempt back for GetStatement, so that the total never passes maxAttempts.
  const reference = await step(run, started, 'SendRequest', sendUrl, queryId, 1, (answer) => {
    if (answer.type !== 'reference') throw badAnswer('SendRequest', 'IB answered a statement where a reference code was expected');
    return answer;
  });

  const statementUrl = statementAddress(run.base, reference.url);
  // IB generates the statement after answering: asking at once is a sure "in progress" (or, some
  // report, 1020 inside the one-request-a-second window).
  await wait(run, Math.max(MIN_WAIT_MS, run.baseDelayMs));
  return step(run, started, 'GetStatement', statementUrl, reference.code, 0, (answer) => {
    if (answer.type !== 'statement') throw badAnswer('GetStatement', 'IB answered a reference code where the statement was expected');
    return answer.bytes;
  });
}

function start(o: FlexFetchOptions): Run {
  for (const [name, value] of [['token', o.token], ['queryId', o.queryId], ['userAgent', o.userAgent]] as const) {
    if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`fetchFlexStatement: ${name} is empty`);
  }
  const maxAttempts = o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 2) throw new TypeError('fetchFlexStatement: maxAttempts must be an integer of 2 or more');
  const positive = (name: string, value: number) => {
    if (!(value > 0) || !Number.isFinite(value)) throw new TypeError(`fetchFlexStatement: ${name} must be a positive number`);
    return value;
  };
  return {
    base: baseAddress(o.baseUrl),
    token: o.token,
    userAgent: o.userAgent,
    fetch: o.fetch ?? fetch,
    sleep: o.sleep ?? ((ms) => delay(ms, undefined, { signal: o.signal })),
    now: o.now ?? Date.now,
    random: o.random ?? Math.random,
    maxAttempts,
    timeoutMs: positive('timeoutMs', o.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxBytes: positive('maxBytes', o.maxBytes ?? DEFAULT_MAX_BYTES),
    baseDelayMs: positive('baseDelayMs', o.baseDelayMs ?? DEFAULT_BASE_DELAY_MS),
    maxDelayMs: positive('maxDelayMs', o.maxDelayMs ?? DEFAULT_MAX_DELAY_MS),
    signal: o.signal,
    attempts: 0,
  };
}

function baseAddress(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`fetchFlexStatement: the base address ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`fetchFlexStatement: the base address must be http(s), not ${url.protocol}`);
  if (url.username || url.password) throw new TypeError('fetchFlexStatement: the base address must not carry credentials');
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** The endpoint `name` under the base's path. */
function beside(base: URL, name: string): URL {
  const url = new URL(base);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/${name}`;
  return url;
}

type Answer = { type: 'reference'; code: string; url: string | null } | { type: 'statement'; bytes: Uint8Array };

/**
 * Sends one step's request until it gives what `accept` takes, retrying the answers IB calls temporary
 * (and network failures, timeouts and HTTP 5xx) with a capped, jittered exponential backoff, within
 * the run's total of attempts.
 */
async function step<T>(
  run: Run,
  started: number,
  name: Step,
  address: URL,
  q: string,
  reserved: number,
  accept: (answer: Answer) => T,
): Promise<T> {
  const url = new URL(address);
  url.search = new URLSearchParams({ t: run.token, q, v: '3' }).toString();
  for (let failures = 0; ; failures++) {
    run.attempts++;
    let error: FlexServiceError;
    try {
      return accept(await ask(run, name, url));
    } catch (e) {
      if (!(e instanceof FlexServiceError)) throw e;
      error = e;
    }
    if (!error.temporary) throw error;
    if (run.attempts >= run.maxAttempts - reserved) {
      const seconds = Math.round((run.now() - started) / 1000);
      throw new FlexServiceError(`IBKR Flex: gave up after ${run.attempts} attempts in ${seconds} s; the last: ${error.message}`, error);
    }
    await wait(run, backoff(run, failures, error.kind));
  }
}

function backoff(run: Run, failures: number, kind: FlexErrorKind): number {
  const ceiling = Math.min(run.maxDelayMs, run.baseDelayMs * 2 ** failures);
  const jittered = ceiling * (1 - JITTER * run.random());
  return Math.round(Math.max(kind === 'throttled' ? THROTTLED_WAIT_MS : MIN_WAIT_MS, jittered));
}

async function wait(run: Run, ms: number): Promise<void> {
  try {
    await run.sleep(ms);
  } catch (e) {
    run.signal?.throwIfAborted();
    throw e;
  }
  run.signal?.throwIfAborted();
}

/** One HTTP exchange (redirects followed only to trusted hosts), read and classified. */
async function ask(run: Run, name: Step, url: URL): Promise<Answer> {
  let target = url;
  for (let hops = 0; ; hops++) {
    const timeout = AbortSignal.timeout(run.timeoutMs);
    const signal = run.signal ? AbortSignal.any([run.signal, timeout]) : timeout;
    try {
      const response = await run.fetch(target, {
        headers: { 'User-Agent': run.userAgent, Accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' },
        redirect: 'manual',
        signal,
      });
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        const location = response.headers.get('location');
        await response.body?.cancel();
        if (location === null) throw badAnswer(name, `HTTP ${response.status} without a Location`);
        if (hops >= MAX_REDIRECTS) throw badAnswer(name, `more than ${MAX_REDIRECTS} redirects`);
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw badAnswer(name, 'a redirect to no valid address');
        }
        target = trusted(run.base, next, name, 'redirects to');
        continue;
      }
      const bytes = await readLimited(response, run.maxBytes, name);
      return classify(name, response.status, bytes, run.token);
    } catch (e) {
      if (run.signal?.aborted) throw run.signal.reason;
      if (e instanceof FlexServiceError) throw e;
      if (timeout.aborted) {
        throw new FlexServiceError(`IBKR Flex ${name}: no answer within ${run.timeoutMs} ms`, { code: null, temporary: true, kind: 'unavailable' });
      }
      throw new FlexServiceError(`IBKR Flex ${name}: network error (${describe(e, run.token)})`, { code: null, temporary: true, kind: 'unavailable' });
    }
  }
}

/** The body, refused as soon as it passes `maxBytes` (by its Content-Length, or while it streams). */
async function readLimited(response: Response, maxBytes: number, name: Step): Promise<Uint8Array> {
  const tooLarge = () => badAnswer(name, `the answer is larger than the ${maxBytes} bytes allowed`);
  const declared = Number(response.headers.get('content-length') ?? '');
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

function classify(name: Step, status: number, bytes: Uint8Array, token: string): Answer {
  const decoder = new TextDecoder();
  const head = decoder.decode(bytes.subarray(0, 2048));
  const root = rootElement(head);

  // IB's envelope is read whatever the HTTP status: its code says more than the status does.
  if (root === 'FlexStatementResponse') {
    const fields = envelopeFields(decoder.decode(bytes));
    const status = fields.get('status') ?? '';
    const codeText = fields.get('errorcode');
    if (codeText !== undefined || status !== 'Success') {
      const code = codeText !== undefined && /^\d{1,9}$/.test(codeText) ? Number(codeText) : null;
      const known = code === null ? undefined : IBKR_FLEX_ERROR_CODES[code];
      const said = clip(redact(fields.get('errormessage') || known?.words || `Status ${status || 'missing'}`, token));
      throw new FlexServiceError(`IBKR Flex ${name} answered ${code ?? 'no code'}: ${said}`, {
        code,
        temporary: known?.temporary ?? false,
        kind: known?.kind ?? (code === null ? 'bad_answer' : 'other'),
      });
    }
    const reference = fields.get('referencecode') ?? '';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(reference)) throw badAnswer(name, 'a Success answer without a usable ReferenceCode');
    return { type: 'reference', code: reference, url: fields.get('url') || null };
  }

  if (status === 429) throw new FlexServiceError(`IBKR Flex ${name}: HTTP 429`, { code: null, temporary: true, kind: 'throttled' });
  if (status >= 500) throw new FlexServiceError(`IBKR Flex ${name}: HTTP ${status}`, { code: null, temporary: true, kind: 'unavailable' });
  if (status < 200 || status >= 300) throw badAnswer(name, `HTTP ${status}`);

  if (root === 'FlexQueryResponse') {
    // A statement cut short (the connection closed early) lacks its end tag: ask for it again.
    const tail = decoder.decode(bytes.subarray(Math.max(0, bytes.byteLength - 256)));
    if (!/<\/FlexQueryResponse\s*>\s*$/.test(tail)) {
      throw new FlexServiceError(`IBKR Flex ${name}: the statement ends before </FlexQueryResponse>`, { code: null, temporary: true, kind: 'bad_answer' });
    }
    return { type: 'statement', bytes };
  }
  if (root === null && !/^\s*</.test(head.replace(/^\uFEFF/, ''))) {
    throw badAnswer(name, `the answer is not XML (it starts ${JSON.stringify(clip(redact(head, token), 40))}): the Flex Query's format must be XML`);
  }
  throw badAnswer(name, `the answer is neither a statement nor IB's answer (it starts ${JSON.stringify(clip(redact(head, token), 40))})`);
}

/** The name of the document's first element, after any BOM, XML declaration, comments and doctype. */
function rootElement(head: string): string | null {
  let rest = head.replace(/^\uFEFF/, '');
  for (;;) {
    const prolog = /^\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)/.exec(rest);
    if (prolog === null) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^\s*<([A-Za-z_][\w.:-]*)[\s/>]/.exec(rest)?.[1] ?? null;
}

/** The text of each child element of the envelope's root, by its lower-cased name (IB's own example writes `<url>`). */
function envelopeFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let depth = 0;
  let field: string | null = null;
  let value = '';
  readMarkup(text, true, {
    open(name) {
      depth++;
      if (depth === 2) {
        field = name.toLowerCase();
        value = '';
      }
    },
    close() {
      if (depth === 2 && field !== null && !fields.has(field)) fields.set(field, value.trim());
      depth--;
    },
    text(text) {
      if (depth === 2) value += text;
    },
  });
  return fields;
}

/**
 * Where to fetch the statement: the address IB's answer names, if it is https (or the base's own
 * origin, as in tests) on the base's host or under interactivebrokers.com; the base's own GetStatement
 * when the answer names none (IB's current guide calls that element legacy).
 */
function statementAddress(base: URL, named: string | null): URL {
  if (named === null) return beside(base, 'GetStatement');
  let url: URL;
  try {
    url = new URL(named);
  } catch {
    throw badAnswer('SendRequest', 'the answer names no valid address for the statement');
  }
  const trustedUrl = trusted(base, url, 'SendRequest', 'names the statement at');
  trustedUrl.search = '';
  trustedUrl.hash = '';
  return trustedUrl;
}

function trusted(base: URL, url: URL, name: Step, verb: string): URL {
  if (url.username || url.password) throw badAnswer(name, `the answer ${verb} an address with credentials in it: refused`);
  if (url.protocol !== 'https:' && url.origin !== base.origin) {
    throw badAnswer(name, `the answer ${verb} ${url.protocol}//${url.host}, which is not https: the token is not sent there`);
  }
  const host = url.hostname;
  if (host !== base.hostname && host !== IB_DOMAIN && !host.endsWith(`.${IB_DOMAIN}`)) {
    throw badAnswer(name, `the answer ${verb} the host ${host}, which is neither ${base.hostname} nor under ${IB_DOMAIN}: the token is not sent there`);
  }
  return url;
}

function badAnswer(name: Step, what: string): FlexServiceError {
  return new FlexServiceError(`IBKR Flex ${name}: ${what}`, { code: null, temporary: false, kind: 'bad_answer' });
}

/** What a network error says, with its cause (undici puts the reason there), the token taken out. */
function describe(e: unknown, token: string): string {
  const parts: string[] = [];
  let at: unknown = e;
  for (let depth = 0; depth < 3 && at instanceof Error; depth++) {
    const code = (at as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !at.message.includes(code) ? `${at.message} [${code}]` : at.message);
    at = at.cause;
  }
  return clip(redact(parts.filter(Boolean).join(': ') || String(e), token), 200);
}

function redact(text: string, token: string): string {
  let out = text;
  for (const form of new Set([token, encodeURIComponent(token)])) out = out.split(form).join('[token]');
  return out;
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
