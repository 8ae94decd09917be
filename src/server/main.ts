import { loadConfig } from './config.ts';
import { buildApp, MarketLockedError } from './app.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  let app;
  try {
    app = await buildApp(config);
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof MarketLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  // A rejection nobody handled is a defect (the fuzz and fault tests fail on one), but one request's
  // or one tick's defect must not take every user's server down: it is logged and the server goes on.
  process.on('unhandledRejection', (err: unknown) => app.log.error({ err }, 'unhandled rejection'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(`Copy-trading monitor listening on ${address} (database: ${app.db.kind})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
