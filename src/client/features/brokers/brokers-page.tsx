import { PageTitle } from '#client/ui/page-title.tsx';

export function BrokersPage() {
  return <PageTitle>Brokers</PageTitle>;
}
