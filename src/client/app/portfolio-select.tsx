import { Dropdown } from '#client/ui/dropdown.tsx';
import { usePortfolio } from './portfolio.ts';

const SHORT_NAMES: Partial<Record<string, string>> = { 'Consolidated Portfolio': 'Consolidated' };

/** Top bar dropdown 'Select Portfolio': the user's authorised portfolios (docs/product.md#screens). */
export function PortfolioSelect() {
  const { portfolio, choices, setPortfolio } = usePortfolio();
  const options = choices.map((p) => ({ value: p, label: p }));
  return (
    <Dropdown
      label="Select Portfolio"
      titledMenu
      options={options}
      value={options.some((o) => o.value === portfolio) ? portfolio : null}
      // With no portfolio at all the button must not claim one.
      placeholder={options.length === 0 ? 'No portfolios' : portfolio}
      emptyText="No portfolios"
      onChange={setPortfolio}
      align="right"
      className="portfolio-select"
      // Phones show the short name ('Consolidated'), so the top bar never cuts it.
      renderValue={(o) => (
        <span className="portfolio-name" data-short={SHORT_NAMES[o.value]}>
          {o.label}
        </span>
      )}
    />
  );
}
