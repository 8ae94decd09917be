/**
 * A read a route may answer from its AnswerCache (src/server/http/answer-cache.ts): the service
 * decides the key (everything the answer depends on: the scope's categories, the permissions it
 * shows, the query) and how to make the answer on a miss; the route sends it.
 */
export interface CachedRead<T> {
  readonly key: string;
  readonly compute: () => Promise<T>;
}
