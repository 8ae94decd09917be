import type { FlexStatus } from '#shared/contract/flex.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { NotAStatementError, ReadBudgetError } from '#shared/statements/report.ts';
import type { AccountRef } from '#server/db/accounts-repo.ts';
import { insertAlerts } from '#server/db/alerts-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { accountRefById } from '#server/db/accounts-repo.ts';
import {
  claimExpiryAlerts,
  deleteFlexSettings,
  dueFlexFetches,
  flexSettingsOf,
  recordFlexFetch,
  saveFlexSettings,
  type FlexSettingsRow,
} from '#server/db/flex-settings-repo.ts';
import { Conflict, InvalidRequest } from '#server/errors.ts';
import { importFile, type ImportContext } from '#server/import/import-file.ts';
import { ReaderBusyError, readStatement } from '#server/import/read-in-worker.ts';
import { fetchFlexStatement, FlexServiceError } from './flex-web-service.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import { NO_KEY } from './token-key.ts';
import { DAY_MS } from '#shared/domain/days.ts';

/** A temporary failure of IB's is tried again this much later, at most this many times in a row before it alerts. */
const RETRY_MS = 60 * 60_000;
const RETRIES_BEFORE_ALERT = 6;
/** Tokens expiring within this many days are alerted on (once per token). */
const EXPIRY_NOTICE_DAYS = 3;
/** How often the leader looks for fetches that are due. */
const LOOK_MS = 60_000;

export interface FlexFetcherDeps {
  db: Database;
  /** How fetched statements are booked; absent where only the settings are kept (the admin CLI). */
  imports?: ImportContext;
  /** The key that seals tokens (null: none configured: tokens cannot be stored). */
  key: Uint8Array | null;
  flexUrl: string;
  /** The hour (UTC) after which the day's statements are ready at IB. */
  fetchHourUtc: number;
  userAgent: string;
  /** The Flex client's first wait (tests shorten it). */
  baseDelayMs?: number;
  /** How often the leader looks for fetches that are due. */
  lookMs?: number;
  /** Wall clock, epoch ms. */
  now: () => number;
  onError: (err: unknown) => void;
}

/** Who asked: a signed-in user (audited under them), the operator's CLI, or the schedule. */
export type FlexActor = { audit: (q: Queryable, action: string, detail: object) => Promise<void> } | null;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const epoch = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/**
 * The daily fetch of Interactive Brokers accounts' Activity statements through IB's Flex Web Service
 * (docs/ibkr.md): the token and query id a write user sets (the token sealed, never answered back or
 * logged), a fetch on demand, and the leader's schedule — each account once a day after IB's
 * statements are ready, a temporary error of IB's tried again an hour later, any other failure (token
 * expired or invalid, IP restriction, query invalid) alerted at once and not tried again until the
 * settings change, and an alert three days before the token's chosen expiry. What is fetched is
 * booked like an uploaded statement (src/server/import/import-file.ts).
 */
export class FlexFetcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: FlexFetcherDeps) {}

  /** The first time after `ms` that a fetch of the day's statements is due: the next fetch hour. */
  private nextSlot(ms: number): Date {
    const day = Math.floor(ms / DAY_MS) * DAY_MS + this.deps.fetchHourUtc * 3_600_000;
    return new Date(day > ms ? day : day + DAY_MS);
  }

  async status(account: AccountRef): Promise<FlexStatus> {
    return statusOf(account, await flexSettingsOf(this.deps.db, account.id));
  }

  /** Sets the account's token and query id (sealed, audited without the token); the first fetch is due at once. */
  async set(account: AccountRef, body: { token: string; query_id: string; token_expires?: string | null }, actor: FlexActor): Promise<FlexStatus> {
    const key = this.deps.key;
    if (!key) throw new Conflict(NO_KEY);
    const now = this.deps.now();
    if (body.token_expires && body.token_expires < iso(now)) throw new InvalidRequest(`token_expires ${body.token_expires} is past: generate a new token.`);
    const sealed = sealSecret(body.token, key, String(account.id));
    await this.deps.db.transaction(async (tx) => {
      await saveFlexSettings(tx, { accountId: account.id, tokenSealed: sealed, queryId: body.query_id, tokenExpires: body.token_expires ?? null, at: new Date(now), next: new Date(now) });
      await actor?.audit(tx, 'accounts.flex-set', { account: account.account_id, query_id: body.query_id, token_expires: body.token_expires ?? null });
    });
    return this.status(account);
  }

  async remove(account: AccountRef, actor: FlexActor): Promise<boolean> {
    return this.deps.db.transaction(async (tx) => {
      const removed = await deleteFlexSettings(tx, account.id);
      if (removed) await actor?.audit(tx, 'accounts.flex-delete', { account: account.account_id });
      return removed;
    });
  }

  /**
   * Fetches the account's statement now and books it; its answer is the import's. A failure of IB's
   * is a Conflict with IB's words (the token never in it); what was fetched but cannot be booked is
   * InvalidRequest. Recorded like a scheduled fetch.
   */
  async fetchNow(account: AccountRef, actor: FlexActor): Promise<ImportStatementResponse> {
    const settings = await flexSettingsOf(this.deps.db, account.id);
    if (!settings) throw new InvalidRequest(`The account ${account.account} has no Flex token: set one first (PUT /api/accounts/${account.account_id}/flex).`);
    const answer = await this.fetchAndBook(account, settings);
    await actor?.audit(this.deps.db, 'accounts.flex-fetch', { account: account.account_id, added: answer.added, updated: answer.updated, skipped: answer.skipped });
    return answer;
  }

  private async fetchAndBook(account: AccountRef, settings: FlexSettingsRow): Promise<ImportStatementResponse> {
    const { db } = this.deps;
    const started = this.deps.now();
    const at = new Date(started);
    const fail = async (status: 'retrying' | 'failed', error: string, next: Date | null, alert: boolean) => {
      const failures = settings.failures + 1;
      await recordFlexFetch(db, account.id, { at, status, error, failures, next });
      if (alert || (status === 'retrying' && failures === RETRIES_BEFORE_ALERT)) {
        await insertAlerts(db, [{ type: 'statement', message: `Flex statement of ${account.account_name} (${account.account}) not fetched: ${error}`, at: Math.floor(started / 1000), accountId: account.id }]);
      }
    };
    if (!this.deps.key) {
      await fail('failed', NO_KEY, null, true);
      throw new Conflict(NO_KEY);
    }
    let bytes: Uint8Array;
    try {
      const token = openSecret(settings.token_sealed, this.deps.key, String(account.id));
      bytes = await fetchFlexStatement({
        baseUrl: this.deps.flexUrl,
        token,
        queryId: settings.query_id,
        userAgent: this.deps.userAgent,
        ...(this.deps.baseDelayMs === undefined ? {} : { baseDelayMs: this.deps.baseDelayMs }),
      });
    } catch (err) {
      const message = err instanceof FlexServiceError ? err.message : 'the stored token could not be opened: set it again.';
      const temporary = err instanceof FlexServiceError && err.temporary;
      await fail(temporary ? 'retrying' : 'failed', message, temporary ? new Date(started + RETRY_MS) : null, !temporary);
      throw new Conflict(`Interactive Brokers did not give the statement: ${message}`);
    }
    try {
      if (!this.deps.imports) throw new Error('statements are booked by the server, not here');
      const file = await readStatement(bytes);
      const { answer } = await importFile(this.deps.imports, account, file, 0, undefined);
      await recordFlexFetch(db, account.id, { at, status: 'ok', error: null, failures: 0, next: this.nextSlot(started) });
      return answer;
    } catch (err) {
      if (err instanceof ReaderBusyError) {
        await fail('retrying', err.message, new Date(started + RETRY_MS), false);
        throw new Conflict(err.message);
      }
      const words = err instanceof NotAStatementError || err instanceof ReadBudgetError || err instanceof InvalidRequest ? err.message : 'it could not be booked.';
      if (!(err instanceof NotAStatementError || err instanceof ReadBudgetError || err instanceof InvalidRequest)) this.deps.onError(err);
      await fail('failed', `the statement IB gave was refused: ${words}`, this.nextSlot(started), true);
      throw new InvalidRequest(`The statement Interactive Brokers gave was refused: ${words}`);
    }
  }

  /** This process leads: it fetches what is due, now and every minute. */
  lead(): void {
    this.timer ??= setInterval(() => void this.runDue(), this.deps.lookMs ?? LOOK_MS);
    this.timer.unref();
    void this.runDue();
  }

  follow(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Fetches every account that is due, one after another, and alerts on tokens about to expire. */
  runDue(): Promise<void> {
    const next = this.running.then(async () => {
      const { db } = this.deps;
      const now = this.deps.now();
      for (const row of await claimExpiryAlerts(db, iso(now + EXPIRY_NOTICE_DAYS * DAY_MS), new Date(now))) {
        const account = await accountRefById(db, row.account_id);
        if (!account) continue;
        await insertAlerts(db, [
          {
            type: 'statement',
            message: `The Flex token of ${account.account_name} (${account.account}) expires on ${row.token_expires}: generate a new one in IB's Client Portal and set it, or the daily statements stop.`,
            at: Math.floor(now / 1000),
            accountId: account.id,
          },
        ]);
      }
      for (const id of await dueFlexFetches(db, new Date(now))) {
        const account = await accountRefById(db, id);
        const settings = await flexSettingsOf(db, id);
        if (!account || !settings) continue;
        await this.fetchAndBook(account, settings).catch((err: unknown) => {
          // Recorded and alerted in fetchAndBook; anything else is the server's to log.
          if (!(err instanceof Conflict || err instanceof InvalidRequest)) this.deps.onError(err);
        });
      }
    });
    this.running = next.catch((err: unknown) => this.deps.onError(err));
    return this.running;
  }
}

function statusOf(account: AccountRef, s: FlexSettingsRow | undefined): FlexStatus {
  return {
    account_id: account.account_id,
    token_set: s !== undefined,
    query_id: s?.query_id ?? null,
    token_expires: s?.token_expires ?? null,
    last_status: s?.last_status ?? null,
    last_error: s?.last_error ?? null,
    last_fetch_at: epoch(s?.last_fetch_at ?? null),
    next_fetch_at: epoch(s?.next_fetch_at ?? null),
  };
}
