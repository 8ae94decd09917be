import type { FastifyPluginAsync } from 'fastify';
import { Ingest } from '#server/ingest/ingest.ts';
import { importRoutes } from '#server/routes/import-routes.ts';
import { ingestRoutes } from '#server/routes/ingest-routes.ts';
import { ImportService } from '#server/services/import-service.ts';
import { IngestService } from '#server/services/ingest-service.ts';
import type { AdapterFactory } from '#server/broker/registry.ts';
import { AgentBroker } from './agent-broker.ts';

/** How long a dashboard order waits for the terminal's answer; how long a command may wait for its agent. */
export const COMMAND_ANSWER_TIMEOUT_MS = 15_000;
const COMMAND_TTL_MS = 30_000;

/**
 * Real accounts (source 'agent'): what terminal agents report through the ingest API, and commands
 * back to them. It always runs; it serves the ingest API and the statement import.
 */
export const agentAdapter: AdapterFactory = {
  source: 'agent',
  async create({ db, ledger, bus, config, log }) {
    const agents = new AgentBroker(db, ledger, {
      now: config.market.now,
      answerTimeoutMs: COMMAND_ANSWER_TIMEOUT_MS,
      commandTtlMs: COMMAND_TTL_MS,
      onError: (err) => log.error({ err }, 'agent broker failed'),
      bus,
    });
    const ingest = new Ingest(db, ledger, config.market.now);
    const routes: FastifyPluginAsync = async (app) => {
      await app.register(ingestRoutes, { ingest: new IngestService({ db, ingest, agents }) });
      await app.register(importRoutes, { imports: new ImportService({ db, ingest, agents }) });
    };
    return { adapter: agents, routes };
  },
};
