/** An adapter's listeners of one kind of event: add one (and get its removal), then tell them all. */
export class Listeners<T> {
  private readonly all = new Set<(value: T) => unknown>();

  add(listener: (value: T) => unknown): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }

  /** Calls every listener now, without waiting for any. */
  notify(value: T): void {
    for (const l of this.all) l(value);
  }

  /** Calls them one after another, each awaited; a failure goes to `onError`, or stops the rest. */
  async emit(value: T, onError?: (err: unknown) => void): Promise<void> {
    for (const l of this.all) {
      try {
        await l(value);
      } catch (err) {
        if (!onError) throw err;
        onError(err);
      }
    }
  }
}
