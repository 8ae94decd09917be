/** What a read may cover: the account categories of the caller's portfolios (auth/scope.ts decides them). */
export interface ScopeFilter {
  readonly categories: readonly string[];
}
