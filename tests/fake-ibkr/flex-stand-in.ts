import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REAL_REPORTS } from '../fixtures/real-reports.ts';

/**
 * A local stand-in of Interactive Brokers' Flex Web Service v3, written from IB's guide (the Flex Web
 * Service page of IBKR Campus and its error table), for tests: it listens on a loopback address, knows
 * the token/query pairs a test gives it, answers SendRequest with a reference code and GetStatement with
 * the query's statement, in the envelopes IB documents, and records every request it sees. A test can
 * script the answers to the next calls of each endpoint (IB's error codes, HTTP failures, odd bodies).
 *
 * It is deliberately independent of src/server/broker/ibkr/: its copy of IB's error words is its own.
 */

/** The path IB serves the service under (SendRequest and GetStatement sit beside each other). */
export const FLEX_PATH = '/AccountManagement/FlexWebService';

/** IB's error table: ErrorCode → ErrorMessage. */
export const IB_ERROR_WORDS: Readonly<Record<number, string>> = {
  1001: 'Statement could not be generated at this time. Please try again shortly.',
  1003: 'Statement is not available.',
  1004: 'Statement is incomplete at this time. Please try again shortly.',
  1005: 'Settlement data is not ready at this time. Please try again shortly.',
  1006: 'FIFO P/L data is not ready at this time. Please try again shortly.',
  1007: 'MTM P/L data is not ready at this time. Please try again shortly.',
  1008: 'MTM and FIFO P/L data is not ready at this time. Please try again shortly.',
  1009: 'The server is under heavy load. Statement could not be generated at this time. Please try again shortly.',
  1010: 'Legacy Flex Queries are no longer supported. Please convert over to Activity Flex.',
  1011: 'Service account is inactive.',
  1012: 'Token has expired.',
  1013: 'IP restriction.',
  1014: 'Query is invalid.',
  1015: 'Token is invalid.',
  1016: 'Account in invalid.',
  1017: 'Reference code is invalid.',
  1018: 'Too many requests have been made from this token. Please try again shortly.',
  1019: 'Statement generation in progress. Please try again shortly.',
  1020: 'Invalid request or unable to validate request.',
  1021: 'Statement could not be retrieved at this time. Please try again shortly.',
};

/** One answer to one call, in the order a test scripts them; when an endpoint's script is used up, the stand-in answers as IB would. */
export type FlexScript =
  /** SendRequest: Success with a new reference code; `url` replaces the `<Url>` named (null: none). */
  | { answer: 'reference'; url?: string | null }
  /** GetStatement: the statement of the query behind the reference code. */
  | { answer: 'statement' }
  /** IB's error envelope; the message defaults to IB's words for the code, the status to Fail. */
  | { answer: 'error'; code: number; status?: 'Fail' | 'Warn'; message?: string }
  | { answer: 'http'; status: number; body?: string }
  /** Any body; `chunked` leaves out the Content-Length. */
  | { answer: 'body'; body: string | Uint8Array; contentType?: string; chunked?: boolean }
  /** A body without a Content-Length that never ends: `head`, then filler until the client hangs up. */
  | { answer: 'endless'; head: string }
  | { answer: 'redirect'; location: string }
  /** Never answers (the client's timeout is what ends the call). */
  | { answer: 'hang' }
  /** Closes the connection without an answer. */
  | { answer: 'drop' };

export interface FlexQuery {
  token: string;
  queryId: string;
  /** The statement's bytes, served as they are. */
  statement: Uint8Array;
}

export interface FlexStandInOptions {
  queries?: FlexQuery[];
  sendRequest?: FlexScript[];
  getStatement?: FlexScript[];
  /** The loopback address to listen on (127.0.0.1 unless told). */
  host?: string;
  /** What a Success answer's `<Url>` names: this stand-in's GetStatement unless told; null leaves the element out. */
  statementUrl?: string | null;
}

export interface SeenRequest {
  /** The last path segment: SendRequest, GetStatement, or whatever else was asked. */
  endpoint: string;
  path: string;
  /** The query string as sent, `?` included (its order shows). */
  search: string;
  params: Record<string, string>;
  userAgent: string | undefined;
}

export interface FlexStandIn {
  /** What a client takes as its base address: `http://host:port/AccountManagement/FlexWebService`. */
  readonly baseUrl: string;
  readonly origin: string;
  /** Every request it saw, in order. */
  readonly requests: SeenRequest[];
  /** Bytes written by `endless` answers before the client hung up. */
  readonly endlessBytes: () => number;
  /** Appends answers to an endpoint's script. */
  script(endpoint: 'SendRequest' | 'GetStatement', ...answers: FlexScript[]): void;
  /** Stops listening and cuts every connection; closing twice is one close. */
  close(): Promise<void>;
}


/** A real IB Flex statement from the shared folder (../shared/real-reports/ibkr beside the project; REAL_REPORTS_DIR overrides it). */
export function realIbkrReport(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(REAL_REPORTS, 'ibkr', name)));
}

/** IB stamps its envelopes like "28 August, 2012 10:37 AM EDT" (New York time). */
function ibTimestamp(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day} ${parts.month}, ${parts.year} ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function envelope(children: Array<[string, string]>): string {
  const lines = children.map(([name, text]) => `<${name}>${escapeXml(text)}</${name}>`);
  return `<FlexStatementResponse timestamp="${ibTimestamp(new Date())}">\n${lines.join('\n')}\n</FlexStatementResponse>\n`;
}

function errorEnvelope(code: number, status: 'Fail' | 'Warn' = 'Fail', message = IB_ERROR_WORDS[code] ?? 'Unknown error.'): string {
  return envelope([
    ['Status', status],
    ['ErrorCode', String(code)],
    ['ErrorMessage', message],
  ]);
}

export async function startFlexStandIn(options: FlexStandInOptions = {}): Promise<FlexStandIn> {
  const queries = options.queries ?? [];
  const scripts: Record<'SendRequest' | 'GetStatement', FlexScript[]> = {
    SendRequest: [...(options.sendRequest ?? [])],
    GetStatement: [...(options.getStatement ?? [])],
  };
  const requests: SeenRequest[] = [];
  const references = new Map<string, FlexQuery>();
  let nextReference = 7_351_902_460;
  let endlessBytes = 0;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const endpoint = url.pathname.split('/').pop() ?? '';
    const params = Object.fromEntries(url.searchParams);
    requests.push({ endpoint, path: url.pathname, search: url.search, params, userAgent: req.headers['user-agent'] });

    const xml = (body: string) => {
      res.writeHead(200, { 'Content-Type': 'text/xml;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    const statementOf = (reference: string | undefined) => {
      const query = reference === undefined ? undefined : references.get(reference);
      if (query === undefined || query.token !== params.t) return xml(errorEnvelope(1017));
      res.writeHead(200, { 'Content-Type': 'text/xml;charset=UTF-8', 'Content-Length': query.statement.byteLength });
      res.end(query.statement);
    };
    const reference = (statementUrl: string | null | undefined) => {
      const query = queries.find((q) => q.token === params.t && q.queryId === params.q);
      if (query === undefined) return xml(errorEnvelope(queries.some((q) => q.token === params.t) ? 1014 : 1015));
      const code = String(nextReference++);
      references.set(code, query);
      const named = statementUrl === undefined ? options.statementUrl : statementUrl;
      const target = named === undefined ? `${origin}${FLEX_PATH}/GetStatement` : named;
      xml(envelope([['Status', 'Success'], ['ReferenceCode', code], ...(target === null ? [] : [['Url', target] as [string, string]])]));
    };

    if (url.pathname !== `${FLEX_PATH}/SendRequest` && url.pathname !== `${FLEX_PATH}/GetStatement`) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    const scripted = scripts[endpoint as 'SendRequest' | 'GetStatement'].shift();
    if (scripted !== undefined) {
      switch (scripted.answer) {
        case 'reference':
          return reference(scripted.url);
        case 'statement':
          return statementOf(params.q);
        case 'error':
          return xml(errorEnvelope(scripted.code, scripted.status, scripted.message));
        case 'http':
          res.writeHead(scripted.status, { 'Content-Type': 'text/html' });
          res.end(scripted.body ?? `<html><body>HTTP ${scripted.status}</body></html>`);
          return;
        case 'body': {
          const body = typeof scripted.body === 'string' ? Buffer.from(scripted.body) : scripted.body;
          res.writeHead(200, {
            'Content-Type': scripted.contentType ?? 'text/xml;charset=UTF-8',
            ...(scripted.chunked ? {} : { 'Content-Length': body.byteLength }),
          });
          res.end(body);
          return;
        }
        case 'endless': {
          res.writeHead(200, { 'Content-Type': 'text/xml;charset=UTF-8' });
          const filler = Buffer.alloc(64 * 1024, ' ');
          let open = true;
          res.on('close', () => (open = false));
          const pump = () => {
            while (open) {
              endlessBytes += filler.byteLength;
              if (!res.write(filler)) {
                res.once('drain', pump);
                return;
              }
            }
          };
          res.write(scripted.head);
          pump();
          return;
        }
        case 'redirect':
          res.writeHead(302, { Location: scripted.location });
          res.end();
          return;
        case 'hang':
          return;
        case 'drop':
          req.socket.destroy();
          return;
      }
    }

    // IB does not document its answer to a request without a User-Agent or without v=3 (v2 has other
    // envelopes): the stand-in refuses both with the table's generic 1020.
    if (!req.headers['user-agent'] || params.v !== '3') return xml(errorEnvelope(1020));
    if (!queries.some((q) => q.token === params.t)) return xml(errorEnvelope(1015));
    if (endpoint === 'SendRequest') return reference(undefined);
    return statementOf(params.q);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const origin = `http://${address}:${port}`;
  let closed: Promise<void> | undefined;

  return {
    baseUrl: `${origin}${FLEX_PATH}`,
    origin,
    requests,
    endlessBytes: () => endlessBytes,
    script(endpoint, ...answers) {
      scripts[endpoint].push(...answers);
    },
    close: () => (closed ??= new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    })),
  };
}
