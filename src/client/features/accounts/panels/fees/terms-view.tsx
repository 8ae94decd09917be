/* The fee terms in force, the high-water mark and what is accrued, and the terms to come. */
import { formatMoney } from '#shared/format/money.ts';
import { FigureList, type Figure } from '#client/ui/figure-list.tsx';
import { type TermsData, todayIso, dayText, rateNumber, percentText, PERIOD_LABEL, BASIS_LABEL, WITHDRAWAL_LABEL, capitalised, termsSummary, defaultText } from './fee-model.ts';

export function TermsView({ data, currency }: { data: TermsData; currency: string }) {
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
