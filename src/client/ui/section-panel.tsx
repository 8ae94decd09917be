import { useId, type ReactNode } from 'react';
import './section-panel.css';

export interface SectionPanelProps {
  title: ReactNode;
  /** Controls on the right of the heading (selectors, expand button). */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Heading level inside the page; panels are h2 by default. */
  level?: 2 | 3;
}

/** A titled card section of a screen; named by its heading for assistive technology. */
export function SectionPanel({ title, actions, children, className, level = 2 }: SectionPanelProps) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className={className ? `section-panel ${className}` : 'section-panel'} aria-labelledby={id}>
      <header className="section-panel-header">
        <Heading id={id} className="section-panel-title">
          {title}
        </Heading>
        {actions === undefined ? null : <div className="section-panel-actions">{actions}</div>}
      </header>
      <div className="section-panel-body">{children}</div>
    </section>
  );
}
