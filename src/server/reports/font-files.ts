import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FontFamily, FontFiles } from '#shared/reports/pdf-fonts.ts';

/** The PDF fonts as the server has them: the @fontsource packages in node_modules (pdf-fonts.ts). */

const require = createRequire(import.meta.url);
const dirs = new Map<FontFamily, string>();

/** The package's folder (its LICENSE is one of the files it exports). */
function packageDir(family: FontFamily): string {
  let dir = dirs.get(family);
  if (!dir) {
    dir = path.dirname(require.resolve(`@fontsource/${family}/LICENSE`));
    dirs.set(family, dir);
  }
  return dir;
}

export const serverFontFiles: FontFiles = {
  async ranges(family) {
    return JSON.parse(await fs.readFile(path.join(packageDir(family), 'unicode.json'), 'utf8')) as Record<string, string>;
  },
  async woff(family, file) {
    if (!/^[a-z0-9-]+\.woff$/.test(file)) throw new Error(`Not a font file name: ${file}`);
    return new Uint8Array(await fs.readFile(path.join(packageDir(family), 'files', file)));
  },
};
