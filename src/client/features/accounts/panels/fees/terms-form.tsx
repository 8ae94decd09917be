/* Setting fee terms from a day on (write users): the form, its checks and the request it sends. */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FEE_LIMITS } from '#shared/contract/fees.ts';
import { parseDecimalInput } from '#shared/domain/suggestions.ts';
import { feeMutations, type SetFeeTermsInput } from '#client/api/queries/fees.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { type Terms, type FeesAccount, todayIso, firstOfNextMonth, isIsoDay, dayText, rateNumber, toPercent, toFraction } from './fee-model.ts';

export interface TermsForm {
  effectiveFrom: string;
  period: Terms['period'];
  performance: boolean;
  rate: string;
  basis: 'equity' | 'balance';
  withdrawals: 'amount' | 'proportional';
  management: boolean;
  annualRate: string;
  volume: boolean;
  usdPerMillion: string;
}

export const percentInput = (fraction: number | undefined, fallback: string) => (fraction === undefined ? fallback : String(toPercent(fraction)));

export function formOf(current: Terms, now = new Date()): TermsForm {
  return {
    effectiveFrom: firstOfNextMonth(now),
    period: current.period,
    performance: current.performance !== null,
    rate: percentInput(current.performance?.rate, '25'),
    basis: current.performance?.basis ?? 'equity',
    withdrawals: current.performance?.withdrawals ?? 'amount',
    management: current.management !== null,
    annualRate: percentInput(current.management?.annual_rate, '2'),
    volume: current.volume !== null,
    usdPerMillion: current.volume ? String(current.volume.usd_per_million) : '',
  };
}

export const limitText = (n: number) => rateNumber.format(n);
export const FORM_ERRORS = {
  day: (today: string) => `Choose the first day of the terms: today (${dayText(today)}) or later. Fee terms are never retroactive.`,
  rate: `The performance fee must be a number from ${limitText(FEE_LIMITS.rate.min * 100)} to ${limitText(FEE_LIMITS.rate.max * 100)} %.`,
  annualRate: `The management fee must be a number from ${limitText(FEE_LIMITS.annualRate.min * 100)} to ${limitText(FEE_LIMITS.annualRate.max * 100)} % a year.`,
  usdPerMillion: `The volume fee must be a number from ${limitText(FEE_LIMITS.usdPerMillion.min)} to ${limitText(FEE_LIMITS.usdPerMillion.max)} USD per million.`,
};

/** A number typed within [min, max], or null. */
export function within(text: string, { min, max }: { min: number; max: number }): number | null {
  const n = parseDecimalInput(text);
  return n === null || n < min || n > max ? null : n;
}

/** The request the form asks for (rates in percent become fractions), or what is wrong with it. */
export function termsBody(account: string, form: TermsForm, today: string): { body: SetFeeTermsInput } | { error: string } {
  if (!isIsoDay(form.effectiveFrom) || form.effectiveFrom < today) return { error: FORM_ERRORS.day(today) };
  let performance: Terms['performance'] = null;
  if (form.performance) {
    const rate = within(form.rate, { min: FEE_LIMITS.rate.min * 100, max: FEE_LIMITS.rate.max * 100 });
    if (rate === null) return { error: FORM_ERRORS.rate };
    performance = { rate: toFraction(rate), basis: form.basis, withdrawals: form.withdrawals };
  }
  let management: Terms['management'] = null;
  if (form.management) {
    const rate = within(form.annualRate, { min: FEE_LIMITS.annualRate.min * 100, max: FEE_LIMITS.annualRate.max * 100 });
    if (rate === null) return { error: FORM_ERRORS.annualRate };
    management = { annual_rate: toFraction(rate) };
  }
  let volume: Terms['volume'] = null;
  if (form.volume) {
    const usd = within(form.usdPerMillion, FEE_LIMITS.usdPerMillion);
    if (usd === null) return { error: FORM_ERRORS.usdPerMillion };
    volume = { usd_per_million: usd };
  }
  return { body: { account, effective_from: form.effectiveFrom, terms: { period: form.period, performance, management, volume } } };
}

export function SetTermsForm({ account, current }: { account: FeesAccount; current: Terms | undefined }) {
  const [open, setOpen] = useState(false);
  const formId = useId();
  return (
    <div className="fees-section fees-set">
      <button
        type="button"
        className="button fees-set-toggle"
        aria-expanded={open}
        aria-controls={formId}
        disabled={current === undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true" className="fees-chevron">
          {open ? '▾' : '▸'}
        </span>
        Set fee terms
      </button>
      {/* Starts from the terms in force, so it opens once they are here. */}
      {open && current ? <TermsFormBody id={formId} account={account} current={current} /> : null}
    </div>
  );
}

/**
 * The fee-terms form's state: the fields as typed, the check before anything is sent (termsBody), the
 * save, and its outcome (the server's message, or what is wrong).
 */
function useTermsForm(account: FeesAccount, current: Terms) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TermsForm>(() => formOf(current));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation(feeMutations.setTerms(queryClient));
  const set = <K extends keyof TermsForm>(key: K, value: TermsForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setDone(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const wanted = termsBody(account.account_id, form, todayIso());
    if ('error' in wanted) {
      setError(wanted.error);
      return;
    }
    setError(null);
    save.mutate(wanted.body, {
      onSuccess: (answer) => setDone(answer.message),
      onError: (err) => setError(err instanceof Error && err.message ? err.message : UPDATE_FAILED),
    });
  };
  return { form, set, submit, saving: save.isPending, error, done };
}

export function TermsFormBody({ id, account, current }: { id: string; account: FeesAccount; current: Terms }) {
  const hintId = useId();
  const { form, set, submit, saving, error, done } = useTermsForm(account, current);
  const today = todayIso();

  return (
    <form id={id} className="fees-form" onSubmit={submit} noValidate aria-label={`Set fee terms of ${account.account_name}`}>
      <div className="fees-form-row">
        <label className="field">
          <span>In force from</span>
          <input
            type="date"
            min={today}
            required
            value={form.effectiveFrom}
            aria-describedby={hintId}
            onChange={(e) => set('effectiveFrom', e.target.value)}
          />
        </label>
        <label className="field">
          <span>Fee period</span>
          <select value={form.period} onChange={(e) => set('period', e.target.value as TermsForm['period'])}>
            <option value="monthly">Monthly</option>
            <option value="quarterly">Quarterly</option>
          </select>
        </label>
      </div>
      <p id={hintId} className="panel-note fees-hint">
        From that day (UTC) on, today at the earliest: terms are never retroactive. Terms already set for that day are replaced.
      </p>

      <FeeKindFields legend="Performance fee" on={form.performance} onToggle={(on) => set('performance', on)}>
        <label className="field">
          <span>Performance fee (% above the mark)</span>
          <input
            type="number"
            inputMode="decimal"
            step="any"
            min={FEE_LIMITS.rate.min * 100}
            max={FEE_LIMITS.rate.max * 100}
            value={form.rate}
            onChange={(e) => set('rate', e.target.value)}
          />
        </label>
        <label className="field">
          <span>Measured on</span>
          <select value={form.basis} onChange={(e) => set('basis', e.target.value as TermsForm['basis'])}>
            <option value="equity">Equity</option>
            <option value="balance">Closed balance</option>
          </select>
        </label>
        <label className="field">
          <span>A withdrawal lowers the mark</span>
          <select value={form.withdrawals} onChange={(e) => set('withdrawals', e.target.value as TermsForm['withdrawals'])}>
            <option value="amount">By the amount</option>
            <option value="proportional">In proportion</option>
          </select>
        </label>
      </FeeKindFields>

      <FeeKindFields legend="Management fee" on={form.management} onToggle={(on) => set('management', on)}>
        <label className="field">
          <span>Management fee (% a year)</span>
          <input
            type="number"
            inputMode="decimal"
            step="any"
            min={FEE_LIMITS.annualRate.min * 100}
            max={FEE_LIMITS.annualRate.max * 100}
            value={form.annualRate}
            onChange={(e) => set('annualRate', e.target.value)}
          />
        </label>
      </FeeKindFields>

      <FeeKindFields legend="Volume fee" on={form.volume} onToggle={(on) => set('volume', on)}>
        <label className="field">
          <span>Volume fee (USD per million)</span>
          <input
            type="number"
            inputMode="decimal"
            step="any"
            min={FEE_LIMITS.usdPerMillion.min}
            max={FEE_LIMITS.usdPerMillion.max}
            value={form.usdPerMillion}
            onChange={(e) => set('usdPerMillion', e.target.value)}
          />
        </label>
      </FeeKindFields>

      <div className="fees-form-actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save terms'}
        </button>
      </div>
      {/* Always present, so that the server's answer is announced. */}
      <p role="status" className="fees-form-done">
        {done}
      </p>
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** One kind of fee: a checkbox that turns it on, and its fields while it is on. */
export function FeeKindFields({ legend, on, onToggle, children }: { legend: string; on: boolean; onToggle: (on: boolean) => void; children: ReactNode }) {
  return (
    <fieldset className={on ? 'fees-kind fees-kind-on' : 'fees-kind'}>
      <legend className="ui-visually-hidden">{legend}</legend>
      <label className="fees-check">
        <input type="checkbox" checked={on} onChange={(e) => onToggle(e.target.checked)} />
        <span>Charge a {legend.toLowerCase()}</span>
      </label>
      {on ? <div className="fees-kind-fields">{children}</div> : null}
    </fieldset>
  );
}
