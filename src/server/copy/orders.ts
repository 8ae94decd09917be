/** The audit row written in the order's own transaction, on whichever instance carries it out. */
export interface AuditEntry {
  userId: number;
  action: string;
  details: Record<string, unknown>;
}

/**
 * What the services ask of the copy engine, wherever it runs (src/server/scale/cluster-orders.ts
 * carries it to the leading instance): closes and TP/SL edits on masters carried to their copies, each
 * with its audit row, and changes the engine must act on (its rules, relations, guards; the bridge).
 */
export interface CopyOrders {
  /** Closes these positions and their copies; the number closed. */
  close(ids: readonly number[], entry: AuditEntry): Promise<number>;
  /** Sets the take profit and stop loss of these positions and their copies; the number changed. */
  modifyStops(ids: readonly number[], tp: number | null, sl: number | null, entry: AuditEntry): Promise<number>;
  /**
   * Writes a change (`write`) once the instance that copies answers, then tells it to read its rules
   * (or the bridge) again; refused before anything is written when it is out of reach.
   */
  change<T>(what: string, write: () => Promise<T>, tell?: 'rules' | 'bridge'): Promise<T>;
}
