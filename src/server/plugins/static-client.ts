import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { decodeURIComponentSafe } from '#server/http/url.ts';

/**
 * The built client from `staticDir` (when it holds one), with the SPA's fallback, and the 404 of
 * everything else. Register it last: its not-found handler answers whatever no route took.
 */
export const staticClientPlugin = fp<{ staticDir: string | undefined }>(
  async (app, { staticDir }) => {
    const hasClient = staticDir !== undefined && fs.existsSync(path.join(staticDir, 'index.html'));
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: staticDir,
        index: ['index.html'],
        preCompressed: true,
        // Our own cache policy (send's default 'public, max-age=0' would overwrite it): hashed assets
        // forever, everything else (index.html, sw.js, the manifest) revalidated on every load.
        cacheControl: false,
        setHeaders(res, file) {
          const immutable = file.includes(`${path.sep}assets${path.sep}`);
          res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
          res.setHeader('vary', 'accept-encoding');
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '/';
      // A page is a plain path: anything naming the API or the feeds in any spelling (/API/…, //api/…,
      // /%61pi/…) is answered 404 like any unmatched API URL, never with the app's page.
      const plain = decodeURIComponentSafe(url).toLowerCase().replace(/\/{2,}/g, '/');
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('//') && !/^\/(api|ws)(\/|$)/.test(plain);
      if (hasClient && isPage && !path.extname(url)) {
        // SPA fallback: the client router draws the route (or its own not-found page).
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.status(404).send({ message: `Not found: ${request.method} ${url}` });
    });
  },
  { name: 'static-client' },
);
