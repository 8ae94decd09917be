/**
 * The HTTP API as one table: per endpoint its method, path, request schemas (query, body, path
 * params) and its 200 answer's schema. The server's routes read their schemas from their entry
 * (src/server/routes/) and the client's one HTTP call (apiRequest,
 * src/client/api/http.ts) takes an entry and the z.input of its request schemas, and parses the
 * answer with its response schema: both sides name the same schema for the same wire
 * (docs/architecture.md, "One wire contract").
 *
 * Not here: the agents' ingest API (src/shared/contract/ingest.ts, no browser calls it), the
 * statement upload (a raw file body, src/shared/contract/import.ts), the ops routes, and the live
 * feeds (src/shared/contract/live.ts).
 */
import { z } from 'zod';
import {
  AccountsInfoQuery,
  AccountsInfoResponse,
  BrokersResponse,
  HistoricalLossesResponse,
  MaxDrawdownQuery,
  MaxDrawdownResponse,
} from './accounts.ts';
import { AlertsResponse } from './alerts.ts';
import { ChangePasswordBody, ChangePasswordResponse, LoginBody, LoginResponse, WsTicketResponse } from './auth.ts';
import { BridgeStatusResponse } from './bridge.ts';
import { MessageResponse } from './common.ts';
import {
  CopyGrowthQuery,
  CopyGrowthResponse,
  CopyHealthQuery,
  CopyHealthResponse,
  CopyReportQuery,
  CopyReportResponse,
  EquityStopBody,
  RiskLimitsBody,
} from './copy.ts';
import { CreateRelationBody, RelationParams, RelationResponse, RelationsQuery, RelationsResponse, UpdateRelationBody } from './copy-relations.ts';
import { AllowedPairsBody, AllowedPairsResponse, CopyRulesResponse } from './copy-rules.ts';
import { HistoricalDealsQuery, HistoricalDealsResponse } from './deals.ts';
import { FeesQuery, FeesResponse, FeeTermsQuery, FeeTermsResponse, SetFeeTermsBody, StatementQuery, StatementResponse } from './fees.ts';
import { HistoricalInfosQuery, HistoricalNavResponse } from './nav.ts';
import { FLEX_FETCH_PATH, FLEX_PATH, FlexParams, FlexStatusResponse, SetFlexBody } from './flex.ts';
import { ImportStatementResponse } from './import.ts';
import { GuardParams, GuardResponse, GuardsQuery, GuardsResponse, RearmGuardBody, SetGuardBody } from './guards.ts';
import { CloseBySymbolBody, SetTpSlBody } from './positions.ts';
import {
  PushPreferences,
  PushPreferencesResponse,
  PushSubscribedResponse,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  VapidKeyResponse,
} from './push.ts';
import { RebatesQuery, RebatesResponse } from './rebates.ts';
import { AnalysisQuery, AnalysisResponse, MaeMfeQuery, MaeMfeResponse } from './stats.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One endpoint: `path` may hold `:name` segments, filled from `params`. */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly params?: z.ZodType;
  /** The 200 answer. Every other status answers ErrorResponse (src/shared/contract/common.ts). */
  readonly response: z.ZodType;
}

const endpoint = <const E extends Endpoint>(e: E): E => e;

/** A query with no parameter: anything else is a 400. */
const NoQuery = z.strictObject({});

export const endpoints = {
  // Sessions
  login: endpoint({ method: 'POST', path: '/api/login', body: LoginBody, response: LoginResponse }),
  logout: endpoint({ method: 'POST', path: '/api/logout', response: MessageResponse }),
  changePassword: endpoint({ method: 'POST', path: '/api/account/password', body: ChangePasswordBody, response: ChangePasswordResponse }),
  wsTicket: endpoint({ method: 'POST', path: '/api/ws-ticket', response: WsTicketResponse }),

  // Accounts and brokers. The account list and the broker list are one route: `only_broker_name=true`
  // answers the brokers (the server's schema is the union of the two answers).
  accountsInfo: endpoint({ method: 'GET', path: '/api/brokers/accounts/info', query: AccountsInfoQuery, response: AccountsInfoResponse }),
  brokers: endpoint({ method: 'GET', path: '/api/brokers/accounts/info', query: AccountsInfoQuery, response: BrokersResponse }),
  historicalLosses: endpoint({ method: 'GET', path: '/api/brokers/accounts/historical-losses', response: HistoricalLossesResponse }),
  maxDrawdown: endpoint({ method: 'GET', path: '/api/brokers/accounts/max-drawdown', query: MaxDrawdownQuery, response: MaxDrawdownResponse }),
  historicalDeals: endpoint({ method: 'GET', path: '/api/brokers/historical-deals', query: HistoricalDealsQuery, response: HistoricalDealsResponse }),
  historicalNav: endpoint({ method: 'GET', path: '/api/brokers/accounts/historical_infos', query: HistoricalInfosQuery, response: HistoricalNavResponse }),

  // Positions, rules, alerts, statistics
  setTpSl: endpoint({ method: 'POST', path: '/api/positions/set-tp-sl-by-symbol', body: SetTpSlBody, response: MessageResponse }),
  closeBySymbol: endpoint({ method: 'POST', path: '/api/positions/close-by-symbol', body: CloseBySymbolBody, response: MessageResponse }),
  copyRules: endpoint({ method: 'GET', path: '/api/copy-rules/infos', response: CopyRulesResponse }),
  allowedPairs: endpoint({ method: 'POST', path: '/api/copy-rules/allowed-pairs', body: AllowedPairsBody, response: AllowedPairsResponse }),
  maeMfe: endpoint({ method: 'GET', path: '/api/stats/mae_mfe', query: MaeMfeQuery, response: MaeMfeResponse }),
  analysis: endpoint({ method: 'GET', path: '/api/stats/analysis', query: AnalysisQuery, response: AnalysisResponse }),
  alerts: endpoint({ method: 'GET', path: '/api/alerts/infos', query: NoQuery, response: AlertsResponse }),
  rebates: endpoint({ method: 'GET', path: '/api/stats/rebates', query: RebatesQuery, response: RebatesResponse }),

  // The bridge
  bridgeStatus: endpoint({ method: 'GET', path: '/api/bridge/status', response: BridgeStatusResponse }),
  bridgeStart: endpoint({ method: 'POST', path: '/api/bridge/start', response: MessageResponse }),
  bridgeStop: endpoint({ method: 'POST', path: '/api/bridge/stop', response: MessageResponse }),

  // Copying
  relations: endpoint({ method: 'GET', path: '/api/copy/relations', query: RelationsQuery, response: RelationsResponse }),
  createRelation: endpoint({ method: 'POST', path: '/api/copy/relations', body: CreateRelationBody, response: RelationResponse }),
  updateRelation: endpoint({ method: 'PUT', path: '/api/copy/relations/:id', params: RelationParams, body: UpdateRelationBody, response: RelationResponse }),
  endRelation: endpoint({ method: 'DELETE', path: '/api/copy/relations/:id', params: RelationParams, response: RelationResponse }),
  copyReport: endpoint({ method: 'GET', path: '/api/copy/report', query: CopyReportQuery, response: CopyReportResponse }),
  copyHealth: endpoint({ method: 'GET', path: '/api/copy/health', query: CopyHealthQuery, response: CopyHealthResponse }),
  copyGrowth: endpoint({ method: 'GET', path: '/api/copy/growth', query: CopyGrowthQuery, response: CopyGrowthResponse }),
  riskLimits: endpoint({ method: 'PUT', path: '/api/risk/limits', body: RiskLimitsBody, response: MessageResponse }),
  equityStop: endpoint({ method: 'PUT', path: '/api/risk/equity-stop', body: EquityStopBody, response: MessageResponse }),
  guards: endpoint({ method: 'GET', path: '/api/copy/guards', query: GuardsQuery, response: GuardsResponse }),
  setGuard: endpoint({ method: 'PUT', path: '/api/copy/guards', body: SetGuardBody, response: GuardResponse }),
  deleteGuard: endpoint({ method: 'DELETE', path: '/api/copy/guards/:id', params: GuardParams, response: GuardResponse }),
  rearmGuard: endpoint({ method: 'POST', path: '/api/copy/guards/:id/rearm', params: GuardParams, body: RearmGuardBody, response: GuardResponse }),

  // Fees and statements. A statement's `format=pdf|csv` answers a file; `format=json`, this schema.
  feeTerms: endpoint({ method: 'GET', path: '/api/fees/terms', query: FeeTermsQuery, response: FeeTermsResponse }),
  setFeeTerms: endpoint({ method: 'PUT', path: '/api/fees/terms', body: SetFeeTermsBody, response: MessageResponse }),
  fees: endpoint({ method: 'GET', path: '/api/fees', query: FeesQuery, response: FeesResponse }),
  statement: endpoint({ method: 'GET', path: '/api/statements', query: StatementQuery, response: StatementResponse }),

  // An Interactive Brokers account's daily Flex fetch (docs/ibkr.md)
  flexStatus: endpoint({ method: 'GET', path: FLEX_PATH, params: FlexParams, query: NoQuery, response: FlexStatusResponse }),
  setFlex: endpoint({ method: 'PUT', path: FLEX_PATH, params: FlexParams, body: SetFlexBody, response: FlexStatusResponse }),
  deleteFlex: endpoint({ method: 'DELETE', path: FLEX_PATH, params: FlexParams, response: MessageResponse }),
  fetchFlex: endpoint({ method: 'POST', path: FLEX_FETCH_PATH, params: FlexParams, response: ImportStatementResponse }),

  // Alerts pushed to the caller's phones (Web Push)
  vapidKey: endpoint({ method: 'GET', path: '/api/push/vapid-public-key', query: NoQuery, response: VapidKeyResponse }),
  pushSubscribe: endpoint({ method: 'POST', path: '/api/push/subscriptions', body: PushSubscriptionBody, response: PushSubscribedResponse }),
  pushUnsubscribe: endpoint({ method: 'DELETE', path: '/api/push/subscriptions', body: PushUnsubscribeBody, response: MessageResponse }),
  pushPreferences: endpoint({ method: 'GET', path: '/api/push/preferences', query: NoQuery, response: PushPreferencesResponse }),
  setPushPreferences: endpoint({ method: 'PUT', path: '/api/push/preferences', body: PushPreferences, response: PushPreferencesResponse }),
} as const;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The typed request of an endpoint, as a caller writes it: the z.input of each of its request schemas. */
export type EndpointInput<E extends Endpoint> = (E extends { query: infer Q extends z.ZodType }
  ? Record<never, never> extends z.input<Q>
    ? { query?: z.input<Q> }
    : { query: z.input<Q> }
  : { query?: never }) &
  (E extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: never }) &
  (E extends { params: infer P extends z.ZodType } ? { params: z.input<P> } : { params?: never });

/** The parsed 200 answer of an endpoint. */
export type EndpointOutput<E extends Endpoint> = z.output<E['response']>;

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : JSON.stringify(v);

/** The path of an endpoint with its `:name` segments filled from `params`. */
export function endpointPath(e: Endpoint, params?: Readonly<Record<string, unknown>>): string {
  return e.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${e.method} ${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(asText(value));
  });
}

/** A query's values as URL parameters, in the order given; undefined and null are left out. */
export function endpointQuery(query: Readonly<Record<string, unknown>> | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) params.set(k, asText(v));
  }
  return params.toString();
}
