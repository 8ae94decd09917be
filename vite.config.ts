import fs from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig({
  plugins: [react(), webManifest()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
