import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { AnswerCache } from './answer-cache.ts';

const body = (answer: { body: Buffer }) => answer.body.toString();

describe('AnswerCache', () => {
  it('computes an answer once per key and generation', async () => {
    const changes = { generation: 1 };
    const cache = new AnswerCache(changes);
    const compute = vi.fn(async () => JSON.stringify({ n: compute.mock.calls.length }));
    expect(body(await cache.get('a', compute))).toBe('{"n":1}');
    expect(body(await cache.get('a', compute))).toBe('{"n":1}');
    expect(compute).toHaveBeenCalledTimes(1);
    expect(body(await cache.get('b', compute))).toBe('{"n":2}');
    changes.generation = 2;
    expect(body(await cache.get('a', compute))).toBe('{"n":3}');
    expect(compute).toHaveBeenCalledTimes(3);
  });

  it('lets callers that ask while an answer is computed wait for that one computation', async () => {
    const cache = new AnswerCache({ generation: 0 });
    let finish: (s: string) => void = () => {};
    const compute = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const first = cache.get('k', compute);
    const second = cache.get('k', compute);
    finish('{}');
    expect(await first).toBe(await second);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('does not keep an answer computed from a generation that changed meanwhile', async () => {
    const changes = { generation: 0 };
    const cache = new AnswerCache(changes);
    const stale = await cache.get('k', async () => {
      changes.generation++;
      return '"old"';
    });
    expect(body(stale)).toBe('"old"');
    expect(cache.size).toBe(0);
    expect(body(await cache.get('k', async () => '"new"'))).toBe('"new"');
  });

  it('keeps no failure: the next caller computes again', async () => {
    const cache = new AnswerCache({ generation: 0 });
    await expect(cache.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(body(await cache.get('k', async () => '1'))).toBe('1');
  });

  it('is bounded by its entry count, least recently used out first', async () => {
    const cache = new AnswerCache({ generation: 0 }, { maxEntries: 2 });
    const compute = vi.fn(async () => '0');
    await cache.get('a', compute);
    await cache.get('b', compute);
    await cache.get('a', compute);
    await cache.get('c', compute);
    expect(cache.size).toBe(2);
    await cache.get('a', compute);
    expect(compute).toHaveBeenCalledTimes(3);
    await cache.get('b', compute);
    expect(compute).toHaveBeenCalledTimes(4);
  });

  it('is bounded by bytes', async () => {
    const cache = new AnswerCache({ generation: 0 }, { maxBytes: 2500 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => 'x'.repeat(1000));
    expect(cache.size).toBe(2);
  });

  it('compresses an answer once per encoding, to copies that decode to its body', async () => {
    const cache = new AnswerCache({ generation: 0 });
    const json = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ i, name: `account ${i}` })) });
    const answer = await cache.get('k', async () => json);
    const br = await cache.encoded('k', answer, 'br');
    expect(await cache.encoded('k', answer, 'br')).toBe(br);
    const gz = await cache.encoded('k', answer, 'gzip');
    expect((await promisify(zlib.brotliDecompress)(br)).toString()).toBe(json);
    expect((await promisify(zlib.gunzip)(gz)).toString()).toBe(json);
    expect(br.length).toBeLessThan(json.length / 3);
  });
});
