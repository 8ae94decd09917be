import type { Queryable } from './database.ts';

/** A broker's names for symbols (EURUSD.m, XAUUSDc) → the canonical symbol. */
export async function symbolMap(q: Queryable, brokerId: number): Promise<Map<string, string>> {
  const rows = await q.query<{ broker_symbol: string; symbol: string }>(
    'SELECT broker_symbol, symbol FROM symbol_map WHERE broker_id = $1',
    [brokerId],
  );
  return new Map(rows.map((r) => [r.broker_symbol, r.symbol]));
}

export async function setSymbol(q: Queryable, brokerId: number, brokerSymbol: string, symbol: string): Promise<void> {
  await q.query(
    `INSERT INTO symbol_map (broker_id, broker_symbol, symbol) VALUES ($1, $2, $3)
     ON CONFLICT (broker_id, broker_symbol) DO UPDATE SET symbol = EXCLUDED.symbol`,
    [brokerId, brokerSymbol, symbol],
  );
}

export async function listSymbols(q: Queryable): Promise<{ broker_name: string; broker_symbol: string; symbol: string }[]> {
  return q.query(
    `SELECT b.broker_name, m.broker_symbol, m.symbol FROM symbol_map m JOIN brokers b ON b.id = m.broker_id
     ORDER BY b.broker_name, m.broker_symbol`,
  );
}
