import type { Queryable } from './database.ts';

/**
 * What the broker charged an account as its positions opened (the commission of each entry deal,
 * taken from the balance at once, in the account's currency), as timed balance moves: the charge at the entry, and at each
 * closing round trip the share of it that trip's row carries in its net (its commission less its
 * closing deal's own), taken back. Once a position is closed they add up to 0; a position still
 * open keeps its charge, as the broker's balance does. Only positions whose every closing row is
 * matched to its closing fill among the events the broker reported (broker_events): for the others the
 * rows alone are the record.
 * Epoch seconds, oldest first.
 */
export async function entryChargeMoves(q: Queryable, accountId: number): Promise<{ at: number; money: number }[]> {
  return q.query(
    `WITH entry AS (
       SELECT position, round(sum((event->>'commission')::numeric * coalesce((event->>'rate')::numeric, 1)), 2) AS charge, min(time_utc) AS at
         FROM broker_events WHERE account_id = $1 AND kind = 'fill' AND event->>'effect' = 'open' AND position IS NOT NULL
        GROUP BY position HAVING round(sum((event->>'commission')::numeric * coalesce((event->>'rate')::numeric, 1)), 2) <> 0),
     closes AS (
       SELECT d.position_id, d.datetime,
              d.commission - round((o.event->>'commission')::numeric * coalesce((o.event->>'rate')::numeric, 1), 2) AS share,
              o.ref IS NOT NULL AS matched
         FROM deals d JOIN entry e ON e.position = d.position_id
         LEFT JOIN broker_events o ON o.account_id = d.account_id AND o.ref = d.ticket AND o.kind = 'fill'
        WHERE d.account_id = $1 AND d.kind = 'trade'),
     eligible AS (
       SELECT e.* FROM entry e WHERE NOT EXISTS (SELECT 1 FROM closes c WHERE c.position_id = e.position AND NOT c.matched))
     SELECT at, money FROM (
       SELECT extract(epoch FROM at)::bigint AS at, charge::float8 AS money FROM eligible
       UNION ALL
       SELECT extract(epoch FROM c.datetime)::bigint, (-c.share)::float8 FROM closes c JOIN eligible e ON e.position = c.position_id) m
     ORDER BY at`,
    [accountId],
  );
}
