import { PageTitle } from '#client/ui/page-title.tsx';

export function SummaryPage() {
  return <PageTitle>Summary</PageTitle>;
}
