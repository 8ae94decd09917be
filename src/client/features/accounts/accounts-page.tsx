import { PageTitle } from '#client/ui/page-title.tsx';

export function AccountsPage() {
  return <PageTitle>Accounts</PageTitle>;
}
