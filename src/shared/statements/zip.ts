import { Unzip, UnzipInflate } from 'fflate';
import { LIMITS, READ_BUDGET, ReadBudgetError } from './budget.ts';

/** The zip is not one this reader can open: damaged, cut short, or using a method other than deflate. */
export class DamagedZipError extends Error {
  override readonly name = 'DamagedZipError';
  constructor(
    message: string,
    /** The zip stops short: a part is cut off and the central directory that ends every zip is missing. */
    readonly cut = false,
  ) {
    super(message);
  }
}

/** Compressed bytes handed to the inflater at a time: at most ~1,032 times as many come out of each. */
const CHUNK = 16 * 1024;

/**
 * The parts of a zip whose names `wanted` accepts, inflated with fflate's streaming unzip. The bytes
 * that come out are counted as they come, never trusting the sizes the zip's headers claim, and the
 * reading stops with ReadBudgetError past READ_BUDGET (all parts together, one part, the number of
 * entries). `whole` says whether the zip's end-of-central-directory record is there (a zip cut short
 * has none). Throws DamagedZipError for anything that is not a readable zip.
 */
export function unzipParts(bytes: Uint8Array, wanted: (name: string) => boolean): { parts: Map<string, Uint8Array>; whole: boolean } {
  const chunks = new Map<string, Uint8Array[]>();
  const finished = new Set<string>();
  let entries = 0;
  let total = 0;
  const unzip = new Unzip((file) => {
    if (++entries > READ_BUDGET.zipEntries) throw new ReadBudgetError(LIMITS.entries);
    if (!wanted(file.name) || chunks.has(file.name)) return;
    const parts: Uint8Array[] = [];
    chunks.set(file.name, parts);
    let size = 0;
    file.ondata = (err, data, final) => {
      // fflate hands its own errors (and ours, thrown from here before) back to this handler.
      if (err) throw err instanceof ReadBudgetError ? err : new DamagedZipError(err.message);
      size += data.length;
      total += data.length;
      if (size > READ_BUDGET.partBytes) throw new ReadBudgetError(LIMITS.part);
      if (total > READ_BUDGET.inflatedBytes) throw new ReadBudgetError(LIMITS.inflated);
      parts.push(data);
      if (final) finished.add(file.name);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) unzip.push(bytes.subarray(at, at + CHUNK), at + CHUNK >= bytes.length);
  } catch (err) {
    if (err instanceof ReadBudgetError || err instanceof DamagedZipError) throw err;
    throw new DamagedZipError(err instanceof Error ? err.message : String(err));
  }
  const whole = hasEndOfDirectory(bytes);
  const parts = new Map<string, Uint8Array>();
  for (const [name, list] of chunks) {
    if (!finished.has(name)) throw new DamagedZipError(`${name} ends before its end`, !whole);
    parts.set(name, concat(list));
  }
  return { parts, whole };
}

function concat(list: Uint8Array[]): Uint8Array {
  if (list.length === 1) return list[0]!;
  const out = new Uint8Array(list.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of list) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The end-of-central-directory record (PK 05 06) in the last 64 KiB + 22 bytes, where a zip keeps it. */
function hasEndOfDirectory(bytes: Uint8Array): boolean {
  const from = Math.max(0, bytes.length - 65_557);
  for (let i = bytes.length - 22; i >= from; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return true;
  }
  return false;
}
