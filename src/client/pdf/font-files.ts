import type { FontFamily, FontFiles } from '#shared/reports/pdf-fonts.ts';

/*
 * The PDF fonts as the app has them (pdf-fonts.ts). The build emits each .woff of the five
 * @fontsource families as a file of its own, fetched only when a report prints a character of its
 * range (a Latin report: Noto Sans' Latin subset, 17 kB a weight); each family's Unicode ranges
 * are a chunk of their own, loaded on demand too. This module is loaded with the PDF library, when
 * a report is asked for. The service worker precaches the Latin subset (vite.config.ts), so a report
 * is made offline; another subset, once fetched, stays in the browser's cache (the build's files are
 * immutable), and one that cannot be fetched leaves its characters as U+FFFD rather than failing
 * the report.
 */

// (Not the one-file 'chinese-simplified' and 'korean' cuts, 0.8–1.6 MB, which unicode.json does not list.)
const WOFF = import.meta.glob<string>(
  [
    '/node_modules/@fontsource/{noto-sans,noto-sans-hebrew,noto-sans-arabic,noto-sans-sc,noto-sans-kr}/files/*-{400,700}-normal.woff',
    '!**/*-{chinese-simplified,korean}-*',
  ],
  { query: '?url', import: 'default', eager: true, exhaustive: true },
);
const RANGES = import.meta.glob<Record<string, string>>('/node_modules/@fontsource/{noto-sans,noto-sans-hebrew,noto-sans-arabic,noto-sans-sc,noto-sans-kr}/unicode.json', {
  import: 'default',
  exhaustive: true,
});

const fetched = new Map<string, Promise<Uint8Array | null>>();

export const appFontFiles: FontFiles = {
  async ranges(family: FontFamily) {
    const load = RANGES[`/node_modules/@fontsource/${family}/unicode.json`];
    if (!load) throw new Error(`No Unicode ranges for ${family}`);
    return load();
  },
  woff(family: FontFamily, file: string) {
    const url = WOFF[`/node_modules/@fontsource/${family}/files/${file}`];
    if (!url) return Promise.resolve(null);
    let bytes = fetched.get(url);
    if (!bytes) {
      bytes = fetch(url)
        .then(async (res) => (res.ok ? new Uint8Array(await res.arrayBuffer()) : null))
        .catch(() => null);
      // A failure is not kept: the next report tries again (the app may be back online).
      void bytes.then((b) => b ?? fetched.delete(url));
      fetched.set(url, bytes);
    }
    return bytes;
  },
};
