import { hasPermission } from '#shared/domain/permissions.ts';
import { useSession } from '#client/auth/session-store.ts';
import { usePortfolio } from '#client/app/portfolio.ts';
import { AccessDenied } from '#client/ui/access-denied.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';

export function RebatesPage() {
  const session = useSession();
  const { portfolio } = usePortfolio();
  if (!hasPermission(session?.restrictions, 'read_rebate')) return <AccessDenied />;
  return <PageTitle>{`Rebates - ${portfolio}`}</PageTitle>;
}
