import { SetGuardBody, type Guard } from '#shared/contract/guards.ts';
import type { GuardBasis, GuardPeriod, GuardUnit } from '#shared/domain/guards.ts';
import { parseDecimalInput } from '#shared/domain/suggestions.ts';

/*
 * The guard form's values (levels typed as text) to and from the contract's SetGuardBody. Pure, so
 * that what is sent is tested without a screen.
 */

/** The unit a basis is set in: an equity floor is always money. */
export const unitOf = (basis: GuardBasis, unit: GuardUnit): GuardUnit => (basis === 'equity_floor' ? 'money' : unit);

/** The guard form as typed: levels are text, empty for a level not set. */
export interface GuardFormValues {
  basis: GuardBasis;
  unit: GuardUnit;
  period: GuardPeriod;
  warn: string;
  closeOnly: string;
  closeAll: string;
}

/** Where the guard goes: a relation (its id) or an account (its account_id). */
export type GuardTargetRef = { scope: 'relation'; target: number } | { scope: 'follower' | 'master'; target: string };

/** One thing the guard may apply to: a relation, the follower's account, or the master's. */
export interface GuardChoice {
  ref: GuardTargetRef;
  /** The option's label: 'This relation', 'The follower'. */
  label: string;
  /** What it covers, in a sentence. */
  hint: string;
  /** The account's currency, for a level in money. */
  currency: string;
}

/** The guard already set on this target with this basis (setting it again replaces its levels). */
export function guardOn(guards: readonly Guard[], ref: GuardTargetRef, basis: GuardBasis): Guard | undefined {
  return guards.find(
    (g) => g.scope === ref.scope && g.basis === basis && (ref.scope === 'relation' ? g.relation?.id === ref.target : g.account?.account_id === ref.target),
  );
}

/** The contract's complaint as the form says it: a sentence, the levels named as on screen. */
function sentence(message: string): string {
  const said = message.replace(/close_only/gu, 'close-only').replace(/close_all/gu, 'close-all');
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}${said.endsWith('.') ? '' : '.'}`;
}

/**
 * The body the form asks the server for, or what is wrong with it: a level that is not a number, or
 * the contract's first complaint (levels out of order, a period missing), as a sentence.
 */
export function guardBodyOf(where: GuardTargetRef, v: GuardFormValues): { body: SetGuardBody } | { problem: string } {
  const levels: [string, string][] = [
    ['warn', v.warn],
    ['close-only', v.closeOnly],
    ['close-all', v.closeAll],
  ];
  const parsed: (number | null)[] = [];
  for (const [name, text] of levels) {
    const value = text.trim() === '' ? null : parseDecimalInput(text);
    if (text.trim() !== '' && value === null) return { problem: `The ${name} level must be a number, or empty for none.` };
    parsed.push(value);
  }
  const [warn = null, closeOnly = null, closeAll = null] = parsed;
  const body: SetGuardBody = {
    ...where,
    basis: v.basis,
    unit: unitOf(v.basis, v.unit),
    ...(v.basis === 'period_loss' ? { period: v.period } : {}),
    warn,
    close_only: closeOnly,
    close_all: closeAll,
  };
  const checked = SetGuardBody.safeParse(body);
  if (checked.success) return { body };
  return { problem: sentence(checked.error.issues[0]?.message ?? 'These levels cannot be set') };
}

/** The form's values for a guard already set (its levels as text), or a new one's defaults. */
export function formValuesOf(g: Guard | undefined, basis: GuardBasis = 'trailing_from_peak'): GuardFormValues {
  const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
  if (!g) return { basis, unit: basis === 'equity_floor' ? 'money' : 'percent', period: 'day', warn: '', closeOnly: '', closeAll: '' };
  return { basis: g.basis, unit: g.unit, period: g.period ?? 'day', warn: text(g.warn), closeOnly: text(g.close_only), closeAll: text(g.close_all) };
}
