import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '#server/db/database.ts';
import { httpAnswerOf } from './errors.ts';

function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .map((v) => {
        const where = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        const message = v.message ?? 'is invalid';
        return where && !message.startsWith(where) ? `${where}: ${message}` : message;
      })
      .join('; ');
  }
  return error.message;
}

/**
 * The API's error answers: a body that fails its schema (400, what is wrong), the database out of
 * reach (503, retry after 5 s), a deliberate answer (an HttpError, or a domain or broker error mapped
 * once in errors.ts), any other 4xx as Fastify made it, and 500 for everything else (logged).
 */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) return reply.status(400).send({ message: validationMessage(error) });
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', '5')
      .send({ message: 'The database is unavailable at the moment. Please try again in a few seconds.' });
  }
  // A deliberate answer: a 4xx, or a 503/504 the server chose (the market paused, a terminal that
  // has not answered in time: a broker error) with its message.
  const answer = httpAnswerOf(error);
  if (answer) return reply.status(answer.statusCode).send({ message: answer.message });
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message });
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send({ message: 'Internal server error.' });
}
