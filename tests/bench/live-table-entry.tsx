// Page of the live-table benchmark (tests/bench/live-table.ts): renders the real LivePositions
// component with synthetic rows and times the first render, one snapshot and a plain-table baseline.
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { Position } from '#shared/contract/positions.ts';
import { LivePositions } from '#client/features/summary/components/live-positions.tsx';
import '#client/styles.css';
import '#client/features/summary/summary.css';

const SYMBOLS = ['EURUSD', 'GBPUSD', 'USDJPY', 'AUDUSD', 'USDCAD', 'EURJPY', 'GBPJPY', 'EURGBP', 'USDCHF', 'AUDCAD'];

function synthetic(n: number, tick: number): Position[] {
  return Array.from({ length: n }, (_, i) => {
    const symbol = SYMBOLS[i % SYMBOLS.length] ?? 'EURUSD';
    const open = symbol.includes('JPY') ? 150 + (i % 7) * 0.1 : 1.08 + (i % 11) * 0.001;
    const drift = Math.sin(i + tick) * 0.001 * open;
    return {
      account_name: `Account ${String(Math.floor(i / 10)).padStart(3, '0')}`,
      account_nameBis: '',
      u_symbol: symbol,
      type: i % 2 === 0 ? 'Buy' : 'Sell',
      category: 'Forex',
      teiko_category: 'global forex',
      time: 1_760_000_000 - i * 60,
      price_open: open,
      price_current: open + drift,
      quantity: 1 + (i % 5) * 0.25,
      quantity_currency: 100_000,
      profit: Math.round(drift * 100_000 * 100) / 100,
      profit_currency: drift * 90_000,
      fee_currency: 0,
      commission_currency: -3,
      swap_currency: -1,
      sl: null,
      tp: null,
      breakeven: open + 0.00002,
      breakevenMax: null,
      breakevenMin: null,
      is_master: i % 10 === 0,
      equity_market: null,
      broker_name: 'IBKR',
      img_path: '',
      server: '',
      server_name: '',
      login: String(1000 + i),
      currency: 'USD',
      exec_duration_ms: 40,
      avgMae: 20,
      medianMae: 18,
      avgMfe: 30,
      medianMfe: 28,
      legs: 1,
    };
  });
}

const container = document.getElementById('root') as HTMLElement;
let root: Root | null = null;

function fresh(): Root {
  root?.unmount();
  container.innerHTML = '';
  root = createRoot(container);
  return root;
}

/** Synchronous render plus the style and layout work it causes. */
function timed(work: () => void): number {
  const t0 = performance.now();
  flushSync(work);
  void container.getBoundingClientRect().height;
  return performance.now() - t0;
}

const noop = () => undefined;

const table = (rows: Position[]) => (
  <div style={{ height: 700, display: 'flex', flexDirection: 'column' }}>
    <LivePositions positions={rows} canWrite wide onEdit={noop} onClose={noop} label="bench" maxHeight="700px" />
  </div>
);

function PlainTable({ rows }: { rows: Position[] }) {
  return (
    <table className="ui-table">
      <tbody>
        {rows.map((p) => (
          <tr key={`${p.account_name}|${p.u_symbol}|${p.type}`}>
            <td>{p.time}</td>
            <td>{p.u_symbol}</td>
            <td>{p.quantity}</td>
            <td>{p.profit}</td>
            <td>{p.price_open}</td>
            <td>{p.sl}</td>
            <td>{p.tp}</td>
            <td>{p.medianMae}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

declare global {
  interface Window {
    bench: {
      firstRender(n: number): number;
      snapshot(n: number, tick: number): number;
      plain(n: number): number;
    };
  }
}

window.bench = {
  firstRender(n) {
    const r = fresh();
    const rows = synthetic(n, 0);
    return timed(() => r.render(table(rows)));
  },
  snapshot(n, tick) {
    const r = root ?? fresh();
    const rows = synthetic(n, tick);
    return timed(() => r.render(table(rows)));
  },
  plain(n) {
    const r = fresh();
    const rows = synthetic(n, 0);
    return timed(() => r.render(<PlainTable rows={rows} />));
  },
};
document.title = 'ready';
