import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const serverPort = process.env.PORT ?? '8080';

/** The web app manifest lives at the top of the project (design card); ship it as /manifest.webmanifest. */
function webManifest(): Plugin {
  return {
    name: 'web-manifest',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: fs.readFileSync('manifest.webmanifest', 'utf8') });
    },
    transformIndexHtml: () => [{ tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' }],
  };
}

/**
 * Writes a brotli (.br, best level) and a gzip (.gz) copy beside every text file of the build, for
 * the server to send as they are (@fastify/static preCompressed) instead of compressing on each
 * request. Source maps are left alone: only developers fetch them.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|html|svg|webmanifest|json)$/;
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every other plugin's closeBundle, so the service worker vite-plugin-pwa writes there is
    // compressed too.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const visit = (dir: string) => {
          for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const file = path.join(dir, entry.name);
            if (entry.isDirectory()) visit(file);
            else if (TEXT.test(entry.name) && fs.statSync(file).size > 1024) {
              const source = fs.readFileSync(file);
              fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
              fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
            }
          }
        };
        visit(outDir);
      },
    },
  };
}

/** Tells one build's persisted query cache from another's (the cache buster). */
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
const buildId = `${version}-${Date.now().toString(36)}`;

export default defineConfig({
  define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(buildId) },
  plugins: [
    react(),
    webManifest(),
    // Our own worker (src/client/sw.ts) so it can keep and clear per-user data; we register it
    // with workbox-window ourselves, and the manifest is the top-level file above.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/client',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    // .vite/manifest.json: the bench follows it to measure what the first paint loads.
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    // Every browser we support (es2022) has native <link rel="modulepreload">: no polyfill to run on boot.
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
