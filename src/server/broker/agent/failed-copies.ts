import { insertAlerts, namingMaster } from '#server/db/alerts-repo.ts';
import { claimFailedCopies, type FailedCopyOrder } from '#server/db/commands-repo.ts';
import type { Database } from '#server/db/database.ts';
import type { NewAlert } from '#server/ledger/port.ts';

/** A copy order handed to a terminal and still unanswered this many of its lives after its expiry (a minute) is told as unanswered. */
const UNANSWERED_AFTER_LIVES = 2;

/** A terminal clock further than this from the server's is named in an expired copy's alert. */
const SKEW_NAMED_S = 5;

const sideOf = (type: string) => (type === 'sell' ? 'Sell' : 'Buy');
const words = (message: string | null) => message?.trim().replace(/\.$/, '') || null;

/** What happened to the order, in the follower's terminal's words where it said any. */
function outcome(order: FailedCopyOrder, ttlS: number): string {
  const said = words(order.message);
  if (order.state === 'rejected') return `was not copied. The terminal refused it: ${said ?? 'no reason given'}.`;
  if (order.state === 'sent') {
    return "was handed to the follower's terminal, which has not answered: check that terminal, the copy may or may not be open.";
  }
  if (!order.sent) return `was not copied: no terminal took the order within ${ttlS} s (the follower's terminal is not connected).`;
  const skew = order.clock_skew_s ?? 0;
  const clock =
    Math.abs(skew) > SKEW_NAMED_S
      ? ` The terminal's clock is ${Math.round(Math.abs(skew))} s ${skew < 0 ? 'ahead of' : 'behind'} the server's: set it right, or its orders (valid ${ttlS} s) keep expiring.`
      : '';
  return `was not copied: the terminal received the order but answered that it had expired${said ? ` (${said})` : ''}.${clock}`;
}

/**
 * The alert of a copy order that did not happen (refused, expired, unanswered), naming the master
 * only to readers who may see it; an alert of type 'copy', so it is pushed as 'Copy missed or
 * duplicated'. `ttlS`: how long an order is valid; `atS`: now, epoch seconds.
 */
export function failedCopyAlert(order: FailedCopyOrder, ttlS: number, atS: number): NewAlert {
  const head = order.state === 'rejected' ? 'Copy refused' : order.state === 'sent' ? 'Copy unanswered' : order.sent ? 'Copy expired' : 'Missed copy';
  const text = (master: string) => `${head} on ${order.follower_name}: ${sideOf(order.type)} ${order.symbol} of ${master} ${outcome(order, ttlS)}`;
  const base = { type: 'copy' as const, at: atS, accountId: order.account_id };
  if (order.master_id === null || order.master_name === null) return { ...base, message: text('its master') };
  return { ...base, ...namingMaster({ id: order.master_id, account_name: order.master_name }, text) };
}

/**
 * Every copy order that did not happen is an alert (pushed): refused by the terminal, expired, or
 * handed out and unanswered a minute (two lives) past its expiry. Each is told once (claimed in the
 * alert's transaction). Commands live on the wall clock. The leader's housekeeping calls it.
 */
export async function tellFailedCopies(db: Database, commandTtlMs: number): Promise<void> {
  const now = Date.now();
  await db.transaction(async (tx) => {
    const failed = await claimFailedCopies(tx, new Date(now), new Date(now - commandTtlMs * UNANSWERED_AFTER_LIVES));
    const ttlS = Math.round(commandTtlMs / 1000);
    await insertAlerts(tx, failed.map((order) => failedCopyAlert(order, ttlS, Math.floor(now / 1000))));
  });
}
