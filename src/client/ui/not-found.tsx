import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <section className="empty-state page">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the summary</Link>
      </p>
    </section>
  );
}
