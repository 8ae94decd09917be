import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { nextTask } from '#client/next-task.ts';
import { prefetchInSteps } from './prefetch.ts';

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('prefetchInSteps', () => {
  it('starts each query in a task of its own, in order, none in the caller’s task', async () => {
    const client = newClient();
    const started: string[] = [];
    const query = (key: string) => (c: QueryClient) =>
      c.prefetchQuery({
        queryKey: [key],
        queryFn: () => {
          started.push(key);
          return Promise.resolve(key.toUpperCase());
        },
      });

    prefetchInSteps(client, [query('accounts'), query('brokers'), query('rules')]);
    expect(started).toEqual([]);
    await nextTask();
    expect(started).toEqual(['accounts']);
    await nextTask();
    expect(started).toEqual(['accounts', 'brokers']);
    await nextTask();
    await nextTask();
    expect(started).toEqual(['accounts', 'brokers', 'rules']);
    // The screen then reads the answers from the cache instead of asking again.
    expect(client.getQueryData(['brokers'])).toBe('BROKERS');
  });

  it('lets a failing query fail in the cache only, and goes on with the next', async () => {
    const client = newClient();
    prefetchInSteps(client, [
      (c) => c.prefetchQuery({ queryKey: ['down'], queryFn: () => Promise.reject(new Error('Network error')) }),
      (c) => c.prefetchQuery({ queryKey: ['up'], queryFn: () => Promise.resolve(1) }),
    ]);
    for (let i = 0; i < 4; i++) await nextTask();
    expect(client.getQueryState(['down'])?.status).toBe('error');
    expect(client.getQueryState(['down'])?.error).toEqual(new Error('Network error'));
    expect(client.getQueryData(['up'])).toBe(1);
  });
});
