/**
 * How to read the guard badges, once above the relations (a phone has no hover title): what the
 * figures are, and what the two states that stop copying mean.
 */
export function GuardLegend() {
  return (
    <p className="relation-sub guard-legend" data-testid="guard-legend">
      <strong>Guards</strong>: the state, what is measured and its warn/close-only/close-all levels; under them the last value and the equity it is
      measured from (start, peak or opening). <strong>Close-only</strong>: no new copies, the master’s closes still copied. <strong>Closed</strong>:
      every copy closed, copying stopped. A guard never resumes by itself.
    </p>
  );
}
