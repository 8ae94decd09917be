/** docs/product.md#screens: shown when a route needs a permission the user lacks. */
export function AccessDenied() {
  return (
    <section className="access-denied" role="alert">
      <h1>Access Denied</h1>
      <p>Access Denied - You do not have the required permissions to view this page.</p>
    </section>
  );
}
