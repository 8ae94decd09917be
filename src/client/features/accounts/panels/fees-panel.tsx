import { memo, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { FEE_LIMITS, type FeeEntryView, type FeesResponse, type FeeTerms, type FeeTermsResponse } from '#shared/contract/fees.ts';
import { parseDecimalInput } from '#shared/domain/suggestions.ts';
import { formatDayFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { numberFormat } from '#shared/format/numbers.ts';
import { feeKeys, feeMutations, feeQueries, fetchStatement, STATEMENT_FAILED, type FeeRange, type SetFeeTermsInput, type StatementFormat } from '#client/api/queries/fees.ts';
import { UPDATE_FAILED } from '#client/api/queries/write.ts';
import { feature } from '#client/config/runtime-config.ts';
import { FigureList, type Figure } from '#client/ui/figure-list.tsx';
import { saveFile } from '#client/export/save-file.ts';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import './fees-panel.css';

type Terms = z.output<typeof FeeTerms>;
type TermsData = z.output<typeof FeeTermsResponse>['data'];
type FeesData = z.output<typeof FeesResponse>['data'];
type FeeKind = FeeEntryView['kind'];

interface FeesAccount {
  account_id: string;
  account_name: string;
  currency: string;
}

/* ---- Days and periods, in UTC like the server's (a fee day is a UTC day) ---- */

const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (date: Date) => date.toISOString().slice(0, 10);
/** Today, 'YYYY-MM-DD' (UTC). */
const todayIso = (now = new Date()) => isoOf(now);
/** The first day of next month: the default start of new terms. */
const firstOfNextMonth = (now = new Date()) => isoOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
const monthPeriod = (year: number, month0: number) => {
  const d = new Date(Date.UTC(year, month0, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const isIsoDay = (s: string) => ISO_DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && isoOf(new Date(`${s}T00:00:00Z`)) === s;
/** 'YYYY-MM-DD' as the app writes days: dd/mm/yyyy. */
const dayText = (iso: string) => formatDayFr(Date.parse(`${iso}T00:00:00Z`) / 1000, 'UTC');

type PeriodChoice = 'this-month' | 'last-month' | 'last-quarter' | 'custom';
const PERIOD_OPTIONS: readonly { value: PeriodChoice; label: string }[] = [
  { value: 'this-month', label: 'This month' },
  { value: 'last-month', label: 'Last month' },
  { value: 'last-quarter', label: 'Last quarter' },
  { value: 'custom', label: 'Custom' },
];

/** The range a choice names: a month or a quarter, or the custom days (null while they are not a range). */
function rangeOf(choice: PeriodChoice, custom: { from: string; to: string }, now = new Date()): FeeRange | null {
  const year = now.getUTCFullYear();
  const month0 = now.getUTCMonth();
  switch (choice) {
    case 'this-month':
      return { period: monthPeriod(year, month0) };
    case 'last-month':
      return { period: monthPeriod(year, month0 - 1) };
    case 'last-quarter': {
      const quarter = Math.floor(month0 / 3); // the previous quarter, 1-based
      return { period: quarter === 0 ? `${year - 1}-Q4` : `${year}-Q${quarter}` };
    }
    case 'custom':
      if (!isIsoDay(custom.from) || (custom.to !== '' && (!isIsoDay(custom.to) || custom.to < custom.from))) return null;
      return custom.to === '' ? { from: custom.from } : { from: custom.from, to: custom.to };
  }
}

/** The first and last day of a range, as the server reads it ('to' of a custom range defaults to today). */
function rangeDays(range: FeeRange, now = new Date()): { from: string; to: string } {
  if (range.period === undefined) return { from: range.from, to: range.to ?? todayIso(now) };
  const [y, p] = range.period.split('-') as [string, string];
  const [month0, months] = p.startsWith('Q') ? [(Number(p.slice(1)) - 1) * 3, 3] : [Number(p) - 1, 1];
  return {
    from: isoOf(new Date(Date.UTC(Number(y), month0, 1))),
    to: isoOf(new Date(Date.UTC(Number(y), month0 + months, 0))),
  };
}

/* ---- Rates: fractions on the wire, percent on screen and in the form ---- */

const rateNumber = numberFormat('fr-FR', { minimumFractionDigits: 0, maximumFractionDigits: 4 });
/** 0.25 → 25 (to 6 decimals, so that 0.07 is 7 and not 7.000000000000001). */
const toPercent = (fraction: number) => Math.round(fraction * 1e8) / 1e6;
/** 25 → 0.25, exactly as typed. */
const toFraction = (percent: number) => Math.round(percent * 1e6) / 1e8;
/** 0.25 → '25 %' (a no-break space before the sign). */
const percentText = (fraction: number) => `${rateNumber.format(toPercent(fraction))}\u00a0%`;

const PERIOD_LABEL = { monthly: 'monthly', quarterly: 'quarterly' } as const;
const BASIS_LABEL = { equity: 'equity', balance: 'closed balance' } as const;
const WITHDRAWAL_LABEL = { amount: 'lowers the mark by the amount', proportional: 'lowers the mark in proportion' } as const;
const KIND_LABEL: Record<FeeKind, string> = { performance: 'Performance fee', management: 'Management fee', volume: 'Volume fee' };
const KINDS: readonly FeeKind[] = ['performance', 'management', 'volume'];
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Terms in one line, e.g. '20 % performance fee on closed balance, 2 % a year management fee, charged quarterly'. */
function termsSummary(terms: Terms): string {
  const parts: string[] = [];
  if (terms.performance) parts.push(`${percentText(terms.performance.rate)} performance fee on ${BASIS_LABEL[terms.performance.basis]}`);
  if (terms.management) parts.push(`${percentText(terms.management.annual_rate)} a year management fee`);
  if (terms.volume) parts.push(`${rateNumber.format(terms.volume.usd_per_million)} USD per million volume fee`);
  return parts.length === 0 ? `No fee, ${PERIOD_LABEL[terms.period]}` : `${parts.join(', ')}, charged ${PERIOD_LABEL[terms.period]}`;
}

/** 'Default: 25 % performance fee, monthly, on equity': the category's profit sharing, when nobody set terms. */
function defaultText(terms: Terms): string {
  const p = terms.performance;
  return p
    ? `Default: ${percentText(p.rate)} performance fee, ${PERIOD_LABEL[terms.period]}, on ${BASIS_LABEL[p.basis]}`
    : `Default: no performance fee, ${PERIOD_LABEL[terms.period]}`;
}

/* ---- The panel ---- */

/**
 * 'Fees & statement' of one account (docs/fees.md): the fee terms in force, the high-water mark and
 * the management fee accrued; for write users, a form to set new terms from a day on; the investor
 * statement of a period as PDF or CSV; and the fees charged in that period, with their arithmetic.
 */
export const FeesPanel = memo(function FeesPanel({
  accountId,
  accountName,
  currency,
  canWrite,
}: {
  accountId: string;
  accountName: string;
  currency: string;
  canWrite: boolean;
}) {
  // Props are plain values, so the accounts' refetch every few seconds does not redraw the panel.
  const account = useMemo<FeesAccount>(() => ({ account_id: accountId, account_name: accountName, currency }), [accountId, accountName, currency]);
  const terms = useQuery(feeQueries.terms(account.account_id));
  const [choice, setChoice] = useState<PeriodChoice>('this-month');
  const [custom, setCustom] = useState(() => {
    const now = new Date();
    return { from: isoOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))), to: todayIso(now) };
  });
  const range = rangeOf(choice, custom);
  const ids = useId();

  return (
    <SectionPanel title="Fees & statement" className="fees-panel">
      <div className="fees-layout">
        <div className="fees-column">
          <div role="group" className="fees-section" aria-labelledby={`${ids}-fee-terms`}>
            <h3 id={`${ids}-fee-terms`} className="stats-subheading">
              Terms in force
            </h3>
            {terms.isPending ? (
              <LoadingState>Loading fee terms...</LoadingState>
            ) : terms.isError ? (
              <ErrorState onRetry={() => void terms.refetch()}>{terms.error.message}</ErrorState>
            ) : (
              <TermsView data={terms.data} currency={account.currency} />
            )}
          </div>
          {canWrite ? <SetTermsForm account={account} current={terms.data?.current.terms} /> : null}
        </div>
        <div className="fees-column">
          <div role="group" className="fees-section" aria-labelledby={`${ids}-statement`}>
            <h3 id={`${ids}-statement`} className="stats-subheading">
              Statement
            </h3>
            <PeriodChooser choice={choice} onChoice={setChoice} custom={custom} onCustom={setCustom} range={range} />
            <StatementDownloads account={account} range={range} />
          </div>
          <div role="group" className="fees-section" aria-labelledby={`${ids}-fee-entries`}>
            <h3 id={`${ids}-fee-entries`} className="stats-subheading">
              Fee entries
            </h3>
            {range === null ? (
              <p className="panel-note">Choose a valid period to see its fees.</p>
            ) : (
              <FeeEntries account={account} range={range} />
            )}
          </div>
        </div>
      </div>
    </SectionPanel>
  );
});

function TermsView({ data, currency }: { data: TermsData; currency: string }) {
  const { current } = data;
  const t = current.terms;
  const today = todayIso();
  const upcoming = data.versions.filter((v) => v.effective_from > today);
  const money: Figure[] = [
    { label: 'High-water mark', value: formatMoney(data.mark, currency), raw: data.mark },
    { label: 'Management fee accrued', value: formatMoney(data.accrued, currency), raw: data.accrued },
  ];
  const figures: Figure[] = current.default
    ? money
    : [
        { label: 'Fee period', value: capitalised(PERIOD_LABEL[t.period]), raw: t.period },
        { label: 'Performance fee', value: t.performance ? percentText(t.performance.rate) : 'None', raw: t.performance?.rate ?? null },
        ...(t.performance
          ? [
              { label: 'Measured on', value: capitalised(BASIS_LABEL[t.performance.basis]), raw: t.performance.basis },
              { label: 'Withdrawal rule', value: capitalised(WITHDRAWAL_LABEL[t.performance.withdrawals]), raw: t.performance.withdrawals },
            ]
          : []),
        {
          label: 'Management fee',
          value: t.management ? `${percentText(t.management.annual_rate)} a year` : 'None',
          raw: t.management?.annual_rate ?? null,
        },
        {
          label: 'Volume fee',
          value: t.volume ? `${rateNumber.format(t.volume.usd_per_million)} USD per million` : 'None',
          raw: t.volume?.usd_per_million ?? null,
        },
        ...money,
      ];
  return (
    <>
      {current.default ? (
        <p className="fees-default">{defaultText(t)}</p>
      ) : current.effective_from ? (
        <p className="panel-note fees-since">In force since {dayText(current.effective_from)}</p>
      ) : null}
      <FigureList label="Fee terms in force" figures={figures} />
      {current.default ? <p className="panel-note">No terms were set for this account: its portfolio&apos;s profit sharing applies.</p> : null}
      {upcoming.length === 0 ? null : (
        <div className="fees-upcoming">
          <p className="fees-upcoming-title">Coming</p>
          <ul aria-label="Terms to come" className="fees-upcoming-list">
            {upcoming.map((v) => (
              <li key={v.effective_from}>
                <strong>From {dayText(v.effective_from)}:</strong> {termsSummary(v.terms)}
                {v.terms.performance ? `; withdrawals: ${WITHDRAWAL_LABEL[v.terms.performance.withdrawals]}` : ''}
                {v.set_by ? <span className="fees-by"> · set by {v.set_by}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/* ---- Set fee terms (write users) ---- */

interface TermsForm {
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

const percentInput = (fraction: number | undefined, fallback: string) => (fraction === undefined ? fallback : String(toPercent(fraction)));

function formOf(current: Terms, now = new Date()): TermsForm {
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

const limitText = (n: number) => rateNumber.format(n);
const FORM_ERRORS = {
  day: (today: string) => `Choose the first day of the terms: today (${dayText(today)}) or later. Fee terms are never retroactive.`,
  rate: `The performance fee must be a number from ${limitText(FEE_LIMITS.rate.min * 100)} to ${limitText(FEE_LIMITS.rate.max * 100)} %.`,
  annualRate: `The management fee must be a number from ${limitText(FEE_LIMITS.annualRate.min * 100)} to ${limitText(FEE_LIMITS.annualRate.max * 100)} % a year.`,
  usdPerMillion: `The volume fee must be a number from ${limitText(FEE_LIMITS.usdPerMillion.min)} to ${limitText(FEE_LIMITS.usdPerMillion.max)} USD per million.`,
};

/** A number typed within [min, max], or null. */
function within(text: string, { min, max }: { min: number; max: number }): number | null {
  const n = parseDecimalInput(text);
  return n === null || n < min || n > max ? null : n;
}

/** The request the form asks for (rates in percent become fractions), or what is wrong with it. */
function termsBody(account: string, form: TermsForm, today: string): { body: SetFeeTermsInput } | { error: string } {
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

function SetTermsForm({ account, current }: { account: FeesAccount; current: Terms | undefined }) {
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

function TermsFormBody({ id, account, current }: { id: string; account: FeesAccount; current: Terms }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  const [form, setForm] = useState<TermsForm>(() => formOf(current));
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation({
    ...feeMutations.setTerms(),
    onSuccess: async (answer) => {
      setDone(answer.message);
      await queryClient.invalidateQueries({ queryKey: feeKeys.all() });
    },
    onError: (err) => setError(err instanceof Error && err.message ? err.message : UPDATE_FAILED),
  });
  const set = <K extends keyof TermsForm>(key: K, value: TermsForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setDone(null);
  };
  const today = todayIso();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const wanted = termsBody(account.account_id, form, todayIso());
    if ('error' in wanted) {
      setError(wanted.error);
      return;
    }
    setError(null);
    save.mutate(wanted.body);
  };

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
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save terms'}
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
function FeeKindFields({ legend, on, onToggle, children }: { legend: string; on: boolean; onToggle: (on: boolean) => void; children: ReactNode }) {
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

/* ---- Statement ---- */

function PeriodChooser({
  choice,
  onChoice,
  custom,
  onCustom,
  range,
}: {
  choice: PeriodChoice;
  onChoice: (c: PeriodChoice) => void;
  custom: { from: string; to: string };
  onCustom: (c: { from: string; to: string }) => void;
  range: FeeRange | null;
}) {
  const days = range ? rangeDays(range) : null;
  return (
    <div className="fees-period">
      <SegmentedControl label="Statement period" options={PERIOD_OPTIONS} value={choice} onChange={onChoice} block className="fees-periods" />
      {choice === 'custom' ? (
        <div className="fees-form-row fees-custom">
          <label className="field">
            <span>From</span>
            <input type="date" value={custom.from} max={custom.to || undefined} onChange={(e) => onCustom({ ...custom, from: e.target.value })} />
          </label>
          <label className="field">
            <span>To</span>
            <input type="date" value={custom.to} min={custom.from || undefined} onChange={(e) => onCustom({ ...custom, to: e.target.value })} />
          </label>
        </div>
      ) : null}
      <p className="panel-note fees-range" aria-live="polite">
        {days ? `${dayText(days.from)} – ${dayText(days.to)}` : 'Give a first day, and a last day that does not come before it.'}
      </p>
    </div>
  );
}

const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
    <path d="M12 4v11m0 0l-4-4m4 4l4-4M5 19h14" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

function StatementDownloads({ account, range }: { account: FeesAccount; range: FeeRange | null }) {
  const [busy, setBusy] = useState<StatementFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A deployment can turn the PDF reports off (/config.json), as it does for NAV and Rebates.
  const formats: StatementFormat[] = feature('pdf_reports') ? ['pdf', 'csv'] : ['csv'];

  const download = async (format: StatementFormat) => {
    if (range === null) return;
    setBusy(format);
    setError(null);
    try {
      const file = await fetchStatement(account.account_id, range, format);
      saveFile(file.blob, file.fileName ?? `statement.${format}`);
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : STATEMENT_FAILED);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <div className="fees-downloads" aria-busy={busy !== null}>
        {formats.map((format) => (
          <button
            key={format}
            type="button"
            className={format === 'pdf' ? 'button primary' : 'button'}
            disabled={range === null || busy !== null}
            onClick={() => void download(format)}
          >
            <DownloadIcon />
            {busy === format ? `Preparing ${format.toUpperCase()}...` : `Download ${format.toUpperCase()}`}
          </button>
        ))}
      </div>
      {error === null ? null : (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </>
  );
}

/* ---- Fee entries ---- */

/** Charges and adjustments shown before 'Show more'. */
const ENTRIES_PAGE = 20;

function FeeEntries({ account, range }: { account: FeesAccount; range: FeeRange }) {
  const query = useQuery(feeQueries.entries(account.account_id, range));
  const [shown, setShown] = useState(ENTRIES_PAGE);
  if (query.isPending) return <LoadingState>Loading fees...</LoadingState>;
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()}>{query.error.message}</ErrorState>;
  return <FeeEntryList data={query.data} shown={shown} onMore={() => setShown((n) => n + ENTRIES_PAGE)} />;
}

/** Sums per currency, each to the cent: '4,56 €', or '4,56 € + 1,00 $US'. */
function moneyTotals(entries: readonly { amount: number; currency: string }[]): string {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  return [...sums].map(([currency, sum]) => formatMoney(sum, currency)).join(' + ');
}

function FeeEntryList({ data, shown, onMore }: { data: FeesData; shown: number; onMore: () => void }) {
  const charges = data.entries.filter((e) => e.entry !== 'accrual');
  const accruals = data.entries.filter((e) => e.entry === 'accrual');
  const visible = charges.slice(0, shown);
  const totals = KINDS.flatMap((kind) => data.totals.filter((t) => t.kind === kind));
  return (
    <div className="fees-entries">
      {totals.length === 0 ? null : (
        <dl className="fees-totals" aria-label="Fee totals">
          {totals.map((t) => (
            <div key={`${t.kind}-${t.currency}`} className="fees-total">
              <dt>{KIND_LABEL[t.kind]} charged</dt>
              <dd>
                {formatMoney(t.charged, t.currency)}
                {t.accrued === 0 ? null : <span className="fees-total-accrued"> + {formatMoney(t.accrued, t.currency)} accrued</span>}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {accruals.length === 0 ? null : (
        <p className="fees-accruals">
          {accruals.length} daily management {accruals.length === 1 ? 'accrual' : 'accruals'}: {moneyTotals(accruals)} in all
        </p>
      )}
      {charges.length === 0 ? (
        <EmptyState className="fees-empty">{accruals.length === 0 ? 'No fee in this period.' : 'Nothing charged in this period yet.'}</EmptyState>
      ) : (
        <ul className="fees-entry-list" aria-label="Fees charged">
          {visible.map((e, i) => (
            <li key={`${e.kind}-${e.entry}-${e.at}-${i}`} className="fees-entry" data-kind={e.kind} data-entry={e.entry}>
              <div className="fees-entry-line">
                <span className="fees-entry-kind">
                  {KIND_LABEL[e.kind]}
                  {e.entry === 'adjustment' ? <span className="badge fees-badge">Adjustment</span> : null}
                </span>
                <span className="fees-entry-amount">{formatMoney(e.amount, e.currency)}</span>
              </div>
              <div className="fees-entry-meta">
                {formatDayFr(e.at, 'UTC')} · period {e.period}
              </div>
              <div className="fees-entry-note">{e.note}</div>
            </li>
          ))}
        </ul>
      )}
      {charges.length > visible.length ? (
        <div className="show-more">
          <span className="panel-note">
            {visible.length} of {charges.length}
          </span>
          <button type="button" className="button" onClick={onMore}>
            Show more
          </button>
        </div>
      ) : null}
    </div>
  );
}
