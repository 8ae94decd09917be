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

/**
 * Chunks for what the app loads on demand (the screens, and the dialogs, charts and reports they
 * open). Each chunk a screen needs costs a phone's main thread a request of its own (the loader
 * inserts a <link rel="modulepreload"> per chunk, about a millisecond each), and the bundler's
 * automatic splitting gave Summary ten beyond the first load, most of them a few hundred bytes of UI
 * kit shared by a different set of screens. This plugin marks the modules that two or more
 * on-demand entries reach through static imports and that the first load does not already hold;
 * the `shared` group below splits them by the set of entries that use them and merges the small
 * pieces. What one entry alone uses stays in its chunk, and what it imports on demand stays on
 * demand. boot.ts loads the first load with import(), which the bundler's `$initial` tag does not
 * follow, so the plugin walks the module graph itself, once it is built and before chunks are made.
 */
const FIRST_LOAD = [/[\\/]node_modules[\\/]react-dom[\\/]client\.js$/, /[\\/]src[\\/]client[\\/]api[\\/]http\.ts$/, /[\\/]src[\\/]client[\\/]main\.tsx$/];
const sharedOnDemand = new Set<string>();
function sharedOnDemandModules(): Plugin {
  return {
    name: 'shared-on-demand-modules',
    apply: 'build',
    buildEnd() {
      const closure = (roots: string[]) => {
        const seen = new Set<string>();
        const stack = [...roots];
        while (stack.length) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const firstLoad = closure(ids.filter((id) => FIRST_LOAD.some((re) => re.test(id))));
      // What the app loads on demand: the screens, and the dialogs, charts and reports they open.
      const onDemand = new Set(ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
      const uses = new Map<string, number>();
      for (const entry of onDemand) {
        if (firstLoad.has(entry)) continue;
        for (const id of closure([entry])) uses.set(id, (uses.get(id) ?? 0) + 1);
      }
      sharedOnDemand.clear();
      for (const [id, count] of uses) if (count >= 2 && !firstLoad.has(id) && !id.endsWith('.css')) sharedOnDemand.add(id);
    },
  };
}

/**
 * V8 compiles a function the first time it runs, on the main thread: a signed-in Summary compiled
 * some 1,400 of them during its load (60 to 130 ms there, traced). This magic comment asks V8 to
 * compile the whole chunk eagerly on the background thread that already parses it as it streams
 * in (explicit compile hints, Chrome 136 and later; other browsers ignore the comment). Every chunk
 * gets it but the PDF libraries', large and loaded for a report that runs a part of them.
 */
const PDF_LIBRARIES = /[\\/]node_modules[\\/](jspdf|jspdf-autotable|html2canvas|dompurify|canvg|core-js|fflate|stackblur-canvas|rgbcolor|svg-pathdata|raf|performance-now)[\\/]/;
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
const compileHint = (chunk: { moduleIds: readonly string[] }) => (chunk.moduleIds.some((id) => PDF_LIBRARIES.test(id)) ? '' : COMPILE_HINT);

/**
 * V8 reads the hint only as a file's first line, and Vite's preload helper puts its
 * `__vite__mapDeps` line above the banner of every chunk with dynamic imports: the two lines trade
 * places (neither has a source mapping, so the source map stays right).
 */
function compileHintFirst(): Plugin {
  return {
    name: 'compile-hint-first',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk') continue;
          const [first = '', second] = chunk.code.split('\n', 2);
          if (second === COMPILE_HINT && first.startsWith('const __vite__mapDeps=')) {
            chunk.code = `${second}\n${first}\n${chunk.code.slice(first.length + second.length + 2)}`;
          }
        }
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
    sharedOnDemandModules(),
    compileHintFirst(),
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
        // The PDF reports' Latin font too (2 × 17 kB), so a report is made offline; the other
        // scripts' subsets are fetched when a report prints them (src/client/pdf/font-files.ts).
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}', 'assets/noto-sans-latin-{400,700}-normal-*.woff'],
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
    rolldownOptions: {
      output: {
        // Split by the set of on-demand entries that use each module (entriesAware), pieces under
        // 24 kB merged into a neighbour: a screen loads what it uses, in a few chunks.
        codeSplitting: {
          groups: [{ name: 'shared', test: (id) => sharedOnDemand.has(id), includeDependenciesRecursively: false, entriesAware: true, entriesAwareMergeThreshold: 24_000 }],
        },
        postBanner: compileHint,
        // The group's chunks are named after every entry that shares them; a short name will do.
        chunkFileNames: (chunk) => (chunk.name.startsWith('shared~') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': `http://127.0.0.1:${serverPort}`,
      '/config.json': `http://127.0.0.1:${serverPort}`,
      '/ws': { target: `ws://127.0.0.1:${serverPort}`, ws: true },
    },
  },
});
