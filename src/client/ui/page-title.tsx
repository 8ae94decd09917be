import { useEffect } from 'react';

/** The page's heading and the document title. */
export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = `${children} · Copy Monitor`;
  }, [children]);
  return <h1 className="page-title">{children}</h1>;
}
