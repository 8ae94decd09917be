import type { AdapterFactory } from './factory.ts';
import { agentAdapter } from './agent/index.ts';
import { ibkrAdapter } from './ibkr/index.ts';
import { simulatedAdapter } from './simulated/index.ts';

/**
 * The adapters the server runs, in order: the first one's rates and instruments win where two
 * report the same (the simulated market's over a terminal's partial quotes). To add one, add its
 * folder under src/server/broker/ and its line here (docs/architecture.md, "How to add an adapter").
 */
export const ADAPTERS: readonly AdapterFactory[] = [simulatedAdapter, agentAdapter, ibkrAdapter];
