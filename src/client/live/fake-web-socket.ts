import type { Position } from '#shared/contract/positions.ts';
import type { WebSocketCtor } from './live-socket.ts';

/** A WebSocket stand-in for tests: records every instance and lets the test play the server. */
export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];

  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  closedWith: number | undefined;
  readonly url: URL;

  constructor(url: string) {
    this.url = new URL(url);
    FakeWebSocket.instances.push(this);
  }

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static last(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  static asCtor(): WebSocketCtor {
    return FakeWebSocket as unknown as WebSocketCtor;
  }

  /** What the client sent, in order. */
  sent: string[] = [];

  send(data: string): void {
    this.sent.push(data);
  }

  close(code?: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(data: string): void {
    this.onmessage?.({ data });
  }

  fail(): void {
    this.onerror?.({});
  }

  serverClose(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

/** A valid live row for tests. */
export const position: Position = {
  account_name: 'Master FX',
  account_nameBis: 'MFX',
  u_symbol: 'EURUSD',
  type: 'Buy',
  category: 'Forex',
  teiko_category: 'global forex',
  time: 1_700_000_000,
  price_open: 1.1,
  price_current: 1.1005,
  quantity: 1,
  quantity_currency: 100_000,
  profit: 50,
  profit_currency: 45,
  fee_currency: 0,
  commission_currency: 0,
  swap_currency: 0,
  sl: null,
  tp: null,
  breakeven: 1.1,
  breakevenMax: null,
  breakevenMin: null,
  is_master: true,
  equity_market: null,
  broker_name: 'IBKR',
  img_path: '/brokers/ibkr.png',
  server: 'srv',
  server_name: 'Server',
  login: '1001',
  currency: 'USD',
  exec_duration_ms: null,
  avgMae: null,
  medianMae: null,
  avgMfe: null,
  medianMfe: null,
  legs: 1,
};
