import type { z } from 'zod';
import type { CommandAnswer, IngestAnswer, IngestBatch } from '#shared/contract/ingest.ts';
import { agentAccounts } from '#server/db/agents-repo.ts';
import { answerCommand, takePending } from '#server/db/commands-repo.ts';
import type { Database } from '#server/db/database.ts';
import { HttpError, notFound } from '#server/http/errors.ts';
import type { AgentChannel } from './agent-broker.ts';
import type { Agent, Ingest } from '#server/ingest/ingest.ts';

export interface IngestDeps {
  db: Database;
  ingest: Ingest;
  agents: AgentChannel;
}

/**
 * Ingest API v1 (docs/ingest-api.md): what terminal agents push (batches of account states,
 * positions, deals and quotes) and the commands they fetch and answer.
 */
export class IngestService {
  constructor(private readonly deps: IngestDeps) {}

  /** Applies a batch of an agent session, then tells the agent adapter (with the batch's quotes). */
  async applyBatch(agent: Agent, batch: IngestBatch): Promise<IngestAnswer> {
    const { ingest, agents } = this.deps;
    const answer = await ingest.apply(agent, batch);
    // Quotes go through the broker's symbol map, like positions and deals.
    await agents.reported(await ingest.quotes(agent, batch));
    return answer;
  }

  /**
   * Long poll: the commands for the agent's accounts, each handed out once; waits up to `waitSeconds`
   * for one, or until `gone()` (the caller hung up).
   */
  async takeCommands(agent: Agent, waitSeconds: number, gone: () => boolean) {
    const { db, agents } = this.deps;
    const deadline = Date.now() + waitSeconds * 1000;
    const accounts = new Map((await agentAccounts(db, agent.id)).map((a) => [a.id, a]));
    for (;;) {
      const taken = await takePending(db, agent.id, new Date());
      if (taken.length || Date.now() >= deadline || gone()) {
        return {
          commands: taken.map((c) => ({
            id: c.id,
            login: accounts.get(c.account_id)?.account ?? '',
            server: accounts.get(c.account_id)?.server ?? '',
            kind: c.kind,
            payload: c.payload,
            expires_at: c.expires_at.getTime(),
          })),
        };
      }
      // Woken when this process queues a command for the agent; every second otherwise.
      await agents.commandsQueued(agent.id, Math.min(1_000, deadline - Date.now()));
    }
  }

  /** The terminal's answer to a command it was handed; answered once, and past its expiry only 'expired' (else 409). */
  async answerCommand(agent: Agent, id: string, answer: z.output<typeof CommandAnswer>) {
    const { db, agents } = this.deps;
    const { state } = answer;
    const answered = await answerCommand(db, agent.id, id, state, answer.message ?? null, new Date(), answer.identifier ?? null);
    if (!answered) throw notFound(`No command ${id} is awaiting this agent's answer.`);
    const { row, late } = answered;
    await agents.answered(row.id);
    if (late) {
      throw new HttpError(
        409,
        `Command ${row.id} expired at ${row.expires_at.toISOString()}: it cannot be answered '${state}' now (a command past its expiry is not run; answer 'expired').`,
      );
    }
    return { message: `Command ${row.id} recorded as ${state}.` };
  }
}
