import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CLIENT_CONFIG_PATH,
  ClientConfig,
  DEFAULT_CLIENT_FEATURES,
  DEFAULT_CLIENT_INTERVALS,
  type ClientSettings,
} from '#shared/contract/client-config.ts';

const { version } = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
  api_base_url: '',
  ws_base_url: '',
  intervals: { ...DEFAULT_CLIENT_INTERVALS },
  features: { ...DEFAULT_CLIENT_FEATURES },
};

/**
 * GET /config.json, public: the client's runtime configuration (API and websocket origins, version,
 * refetch intervals, feature switches), which the page loads before the app starts. Built and
 * validated once, when the server starts (a bad setting stops the start); revalidated by the
 * browser on every load (no-cache), so a new deployment's settings reach every client at its next
 * start, and the service worker keeps the last copy for an offline start.
 */
export const clientConfigRoutes: FastifyPluginAsyncZod<{ settings?: ClientSettings | undefined }> = async (app, { settings }) => {
  const config = ClientConfig.parse({ ...(settings ?? DEFAULT_CLIENT_SETTINGS), version });
  app.get(
    CLIENT_CONFIG_PATH,
    {
      config: { public: true },
      schema: {
        description: 'The client\'s runtime configuration, loaded before the app starts. No key needed; revalidated on every load.',
        response: { 200: ClientConfig.describe('Runtime configuration of the client (docs/client.md lists its fields).') },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(config),
  );
};
