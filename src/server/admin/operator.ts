// The admin CLI acts as the operator: every account, its changes audited without a user (via: admin cli),
// through the same services the API calls, whose refusals it prints in the same words.
import type { Actor } from '#server/copy/relations.ts';
import { auditOperator } from '#server/db/registry-repo.ts';
import { httpAnswerOf } from '#server/http/errors.ts';
import { CliError } from './args.ts';

export const OPERATOR: Actor = { scope: null, audit: auditOperator };

/** What the API refuses (400, 404) the CLI refuses with the same words, exit code 1. */
export async function asCli<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const answer = httpAnswerOf(err);
    if (answer && answer.statusCode < 500) throw new CliError(answer.message);
    throw err;
  }
}
