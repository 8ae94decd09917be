/** What the reader tells about a file it still read: one line per kind of thing, with how often it happened. */
export interface FlexWarning {
  message: string;
  count: number;
}

/** Collects warnings by kind: the same kind again raises its count, and the message is written once, with the total. */
export class Warnings {
  private readonly kinds = new Map<string, { count: number; message: (count: number) => string }>();

  /** Counts `count` more of the kind `key`; `message` writes its line for the total. */
  add(key: string, message: (count: number) => string, count = 1): void {
    const known = this.kinds.get(key);
    if (known) known.count += count;
    else this.kinds.set(key, { count, message });
  }

  /** A warning that happens once (a statement's figures disagreeing): its message as it is. */
  once(key: string, message: string): void {
    this.add(key, () => message);
  }

  list(): FlexWarning[] {
    return [...this.kinds.values()].map(({ count, message }) => ({ message: message(count), count }));
  }
}

/** "1 row", "3 rows". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
