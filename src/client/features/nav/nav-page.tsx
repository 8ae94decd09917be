import { PageTitle } from '#client/ui/page-title.tsx';
import { usePortfolio } from '#client/app/portfolio.ts';

export function NavPage() {
  const { portfolio } = usePortfolio();
  return <PageTitle>{`Net Asset Value - ${portfolio}`}</PageTitle>;
}
