import { PageTitle } from '#client/ui/page-title.tsx';
import { DEFAULT_PORTFOLIO } from '#shared/domain/portfolios.ts';

export function NavPage() {
  return <PageTitle>{`Net Asset Value - ${DEFAULT_PORTFOLIO}`}</PageTitle>;
}
