import type { FastifyPluginAsync } from 'fastify';
import { Ingest } from '#server/ingest/ingest.ts';
import type { AdapterFactory } from '#server/broker/factory.ts';
import { agentLastSeen } from '#server/db/copy-repo.ts';
import { AgentBroker } from './agent-broker.ts';
import { COMMAND_TTL_MS } from './clock.ts';
import { ingestRoutes } from './ingest-routes.ts';
import { IngestService } from './ingest-service.ts';

/** How long a dashboard order waits for the terminal's answer; how long a command may wait for its agent. */
export const COMMAND_ANSWER_TIMEOUT_MS = 15_000;

/**
 * Real accounts (source 'agent'): what terminal agents report through the ingest API, and commands
 * back to them. It always runs; it serves the ingest API.
 */
export const agentAdapter: AdapterFactory = {
  source: 'agent',
  capabilities: { feed: 'terminal', importsStatements: true, registration: { server: null }, orders: { answerTimeoutMs: COMMAND_ANSWER_TIMEOUT_MS } },
  async create({ db, ledger, bus, config, log }) {
    const agents = new AgentBroker(db, ledger, {
      now: config.market.now,
      answerTimeoutMs: COMMAND_ANSWER_TIMEOUT_MS,
      commandTtlMs: config.agents?.commandTtlMs ?? COMMAND_TTL_MS,
      ...(config.agents?.watchMs ? { watchMs: config.agents.watchMs } : {}),
      onError: (err) => log.error({ err }, 'agent broker failed'),
      bus,
    });
    const ingest = new Ingest(db, ledger, config.market.now, config.agents?.unconfirmedCloseAfterS);
    const routes: FastifyPluginAsync = async (app) => {
      await app.register(ingestRoutes, { ingest: new IngestService({ db, ingest, agents }) });
    };
    return {
      adapter: agents,
      routes,
      contact: (ids) => agentLastSeen(db, ids),
      // Real accounts' figures are served from the agents' snapshot: read again from the books.
      booksChanged: () => agents.reported([]),
    };
  },
};
