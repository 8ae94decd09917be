import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import { HELMET_OPTIONS } from '#server/http/helmet-options.ts';

/** The security headers of every answer (src/server/http/helmet-options.ts). */
export const helmetPlugin = fp(
  async (app) => {
    await app.register(helmet, HELMET_OPTIONS);
  },
  { name: 'helmet-setup' },
);
