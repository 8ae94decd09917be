import { hasPermission } from '#shared/domain/permissions.ts';
import { DEFAULT_PORTFOLIO } from '#shared/domain/portfolios.ts';
import { useSession } from '#client/auth/session-store.ts';
import { AccessDenied } from '#client/ui/access-denied.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';

export function RebatesPage() {
  const session = useSession();
  if (!hasPermission(session?.restrictions, 'read_rebate')) return <AccessDenied />;
  return <PageTitle>{`Rebates - ${DEFAULT_PORTFOLIO}`}</PageTitle>;
}
