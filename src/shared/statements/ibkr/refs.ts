/*
 * An event's ref: IB's own id of the row where it has one (transactionID, else tradeID), else a hash of
 * the row's identifying attributes, so that importing the same file again gives the same refs. Hashes
 * live in [2^52, 2^53): IB's ids are far below (ten or eleven digits), so the two never collide, and
 * every ref stays a safe integer.
 */

const HASH_FLOOR = 2 ** 52;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/** IB's id in a row's attribute: a positive whole number that is a safe integer, else null. */
export function idOf(value: string | undefined): number | null {
  const text = (value ?? '').trim();
  if (!/^\d{1,16}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 && Number.isSafeInteger(id) && id < HASH_FLOOR ? id : null;
}

/** FNV-1a (64 bits) of a text's UTF-16 code units, folded into [2^52, 2^53). */
export function hashRef(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return HASH_FLOOR + Number(hash % BigInt(HASH_FLOOR));
}

/** The attributes that tell one row without an id from another of the same element. */
const IDENTIFYING = [
  'accountId', 'currency', 'assetCategory', 'conid', 'symbol', 'description', 'dateTime', 'tradeDate', 'tradeTime',
  'reportDate', 'type', 'buySell', 'quantity', 'tradePrice', 'amount', 'proceeds', 'levelOfDetail', 'ibOrderID',
] as const;

/**
 * Makes the refs of rows without an id: the same row again in the same statement (two equal fees of a
 * day) gets the next occurrence number in its hash, so both are kept and each keeps its ref on reimport.
 */
export class RowRefs {
  private readonly occurrences = new Map<string, number>();

  /** IB's id of the row, else its hash. */
  of(tag: string, attrs: Readonly<Record<string, string>>): number {
    return idOf(attrs.transactionID) ?? idOf(attrs.tradeID) ?? this.hashed(tag, attrs);
  }

  /** The row's hash, whatever ids it has (for rows whose id is shared with another: a lot and its opening trade). */
  hashed(tag: string, attrs: Readonly<Record<string, string>>): number {
    const key = [tag, ...IDENTIFYING.map((name) => attrs[name] ?? '')].join('\u001f');
    const seen = this.occurrences.get(key) ?? 0;
    this.occurrences.set(key, seen + 1);
    return hashRef(`${key}\u001f${seen}`);
  }
}
