import type { FastifyPluginAsync } from 'fastify';
import type { AdapterFactory } from '#server/broker/factory.ts';
import { lastStatementAt } from '#server/db/statement-repo.ts';
import { IBKR_FLEX_DEFAULT_URL } from '#server/config.ts';
import { FlexFetcher } from './flex-fetch.ts';
import { flexRoutes } from './flex-routes.ts';
import { IBKR_SOURCE, IbkrBroker } from './ibkr-broker.ts';
import { tokenKey } from './token-key.ts';

/** What the server calls itself to IB's Flex Web Service (IB asks for a User-Agent naming the technology and its version). */
const USER_AGENT = 'copytrade-monitor/1.0';

/**
 * Interactive Brokers accounts (source 'ibkr'), fed by their Flex statements: imported like any
 * statement, or fetched once a day through IB's Flex Web Service (docs/ibkr.md). It takes no orders.
 */
export const ibkrAdapter: AdapterFactory = {
  source: IBKR_SOURCE,
  capabilities: { feed: 'statement', importsStatements: true, registration: { server: 'IBKR' }, orders: null },
  async create({ db, ledger, bus, config, log, capabilities, booksChanged }) {
    const broker = new IbkrBroker(db, { now: config.market.now, bus, onError: (err) => log.error({ err }, 'reading the IBKR accounts failed') });
    const ibkr = config.ibkr ?? { flexUrl: IBKR_FLEX_DEFAULT_URL, fetchHourUtc: 6 };
    const flex = new FlexFetcher({
      db,
      imports: { db, ledger, sources: (source) => capabilities.get(source), booksChanged, now: config.market.now },
      key: tokenKey(config),
      flexUrl: ibkr.flexUrl,
      fetchHourUtc: ibkr.fetchHourUtc,
      userAgent: USER_AGENT,
      ...(ibkr.baseDelayMs === undefined ? {} : { baseDelayMs: ibkr.baseDelayMs }),
      ...(ibkr.lookMs === undefined ? {} : { lookMs: ibkr.lookMs }),
      now: Date.now,
      onError: (err) => log.error({ err }, 'the Flex fetch failed'),
    });
    const routes: FastifyPluginAsync = async (app) => {
      await app.register(flexRoutes, { db, flex });
    };
    return {
      adapter: broker,
      routes,
      contact: (ids) => lastStatementAt(db, ids),
      booksChanged: (ids) => broker.booked(ids),
      lead: () => flex.lead(),
      follow: () => flex.follow(),
    };
  },
};
