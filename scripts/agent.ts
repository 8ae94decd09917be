/**
 * `npm run agent`: the reference agent's command line (src/agent/agent.ts), with `simulate` wired to
 * the server's simulated market (src/server/broker/simulated/terminals.ts). The agent speaks only the
 * ingest contract; this script is where the simulation is handed to its reporting loop.
 */
import { main, option } from '#agent/agent.ts';
import { runAsAgent } from '#agent/reporter.ts';
import { setupCommands, startSimulation } from '#server/broker/simulated/terminals.ts';

async function simulate(args: string[]): Promise<number> {
  const seed = Number(option(args, 'seed') ?? '42');
  if (!Number.isInteger(seed)) {
    process.stderr.write('--seed is a whole number.\n');
    return 2;
  }
  const printSetup = args.includes('--print-setup');
  const url = option(args, 'url') ?? process.env.AGENT_URL;
  const key = option(args, 'key') ?? process.env.AGENT_KEY;
  if (!printSetup && (!url || !key)) {
    process.stderr.write('Give the server (--url or AGENT_URL) and the agent key (--key or AGENT_KEY), or --print-setup.\n');
    return 2;
  }
  const sim = await startSimulation(seed, printSetup ? 0 : 1_000);
  try {
    if (printSetup) {
      process.stdout.write(`${setupCommands(sim, `simulated-${seed}`).join('\n')}\n`);
      return 0;
    }
    const seconds = Number(option(args, 'seconds') ?? 'Infinity');
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    if (Number.isFinite(seconds)) setTimeout(() => stop.abort(), seconds * 1000).unref();
    await runAsAgent(sim, { url: url!, key: key!, everyMs: 1_000, signal: stop.signal, log: (l) => process.stdout.write(`${l}\n`) });
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await sim.stop();
  }
}

process.exitCode = await main(process.argv.slice(2), { simulate });
