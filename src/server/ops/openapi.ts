import fs from 'node:fs';
import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { AGENT_KEY_HEADER } from '#shared/contract/ingest.ts';
import { API_KEY_HEADER } from '#shared/contract/common.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';
const SECURITY_SCHEME = 'apiKey';
const AGENT_SCHEME = 'agentKey';

const { version } = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const WS_DESCRIPTION =
  'Websocket upgrade (not a plain GET). It takes no x-api-key: authenticate with a single-use `token` ' +
  'query parameter from POST /api/ws-ticket (valid 30 s). The server pushes `{"type":"snapshot"}` messages ' +
  '(`timestamp`, `positionsAggregate`, and a `version`). With `updates=delta` it sends a versioned snapshot, then ' +
  '`{"type":"delta","timestamp","version","base","length","changes"}`: the rows are cut to `length`, and each ' +
  '`[index, fields]` of `changes` sets those fields of the row at that index (a whole row where the index is new); a ' +
  'delta applies only to the rows of version `base`, and a client that holds another version sends ' +
  '`{"type":"resync"}` and gets the current snapshot. The client may send `{"type":"ping"}` (answered ' +
  '`{"type":"pong"}`) and `{"type":"resync"}`, 20 at once and 2 a second after. Close codes: 4401 no or bad ticket ' +
  'or the session ended, 4403 not authorised, 4404 unknown account or broker, 4400 any other client message, ' +
  '4429 too many messages, 4503 no market running.';

const zodToJsonSchema = createJsonSchemaTransform({ skipList: [] });

/** Sections of the docs page: the first path segment, sign-in calls together. */
const SEGMENT_TAGS: Record<string, string> = { login: 'auth', logout: 'auth', account: 'auth', 'ws-ticket': 'auth', 'openapi.json': 'ops' };

function tagOf(url: string): string {
  if (url.startsWith('/ws/')) return 'live (websocket)';
  const segment = /^\/api\/([^/]+)/.exec(url)?.[1];
  return segment === undefined ? 'ops' : (SEGMENT_TAGS[segment] ?? segment);
}

/**
 * The zod schemas as JSON Schema, plus what the route table knows and zod does not: which routes take
 * the x-api-key (every /api route not declared `config: { public: true }`, as the auth guard decides),
 * and how the websocket routes authenticate.
 */
const documentRoute: SwaggerTransform = (document) => {
  // @fastify/websocket hides its routes from the document; ours are part of the API, so they stay.
  const websocket = (document.route as { websocket?: boolean }).websocket === true;
  const { hide, ...visible } = document.schema as FastifySchema & { hide?: boolean };
  if (hide && !websocket) return { schema: { hide: true }, url: document.url };
  const { schema, url } = zodToJsonSchema({ ...document, schema: visible });
  const own = schema as FastifySchema & { description?: string };
  const keyed = /^\/api(\/|$)/.test(url) && document.route.config?.public !== true;
  // The ingest API (config.agent) takes a terminal agent's key instead.
  const scheme = document.route.config?.agent === true ? AGENT_SCHEME : SECURITY_SCHEME;
  return {
    url,
    schema: {
      ...own,
      tags: [tagOf(url)],
      ...(websocket ? { description: own.description ? `${WS_DESCRIPTION}\n\n${own.description}` : WS_DESCRIPTION } : {}),
      security: keyed ? [{ [scheme]: [] }] : [],
    },
  };
};

/**
 * OpenAPI 3.1 from the routes' zod schemas at GET /api/openapi.json, and Swagger UI at GET /api/docs.
 * Call it before the routes it documents are registered: @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Copy-trading monitor API',
        version,
        description:
          'Sign in with POST /api/login and send the returned api_key in the x-api-key header on every other /api call. ' +
          'Terminal agents call /api/ingest/v1/… with their own key in the x-agent-key header instead.',
      },
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: API_KEY_HEADER,
            description: 'The api_key from POST /api/login (a session token).',
          },
          [AGENT_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: AGENT_KEY_HEADER,
            description: "A terminal agent's key, issued once by `npm run admin -- agent create` (docs/ingest-api.md).",
          },
        },
      },
    },
    transform: documentRoute,
    transformObject: jsonSchemaTransformObject,
  });

  app.get(
    OPENAPI_PATH,
    { config: { public: true }, schema: { description: 'This document (OpenAPI 3.1).', tags: ['ops'] } },
    async () => app.swagger(),
  );

  await app.register(async (docs) => {
    // Swagger UI adds its page and asset routes itself, with no way to pass them route config: mark them
    // public here, in this scope only, so the auth guard lets a browser load them without a key.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    // The app's Content-Security-Policy (helmet) already suits the page: its scripts and stylesheets are
    // files under /api/docs/static ('self'), its inline style attributes are allowed ('unsafe-inline'),
    // its logo is a data: image. So no staticCSP here: swagger-ui's own would loosen it (https: styles
    // and fonts, frame-ancestors 'self').
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { deepLinking: true, docExpansion: 'list', persistAuthorization: false },
    });
  });
}
