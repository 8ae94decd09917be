import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/**
 * How @fastify/compress is registered (src/server/plugins/compress.ts: brotli at a fast level, or gzip, above 1 kB):
 * a cached answer is compressed the same way, once, and sent with its content-encoding, which
 * the plugin then leaves alone.
 */
export const ANSWER_COMPRESSION = { encodings: ['br', 'gzip'] as Encoding[], threshold: 1024, brotliQuality: 4 };

export type Encoding = 'br' | 'gzip';

/** Where the cache reads the current generation: `Changes` in the server, a plain object in tests. */
export interface Generation {
  readonly generation: number;
}

/** One serialised answer and, once asked for, its compressed copies. */
export interface Answer {
  readonly generation: number;
  readonly body: Buffer;
  readonly encoded: Map<Encoding, Promise<Buffer>>;
}

export interface AnswerCacheOptions {
  /** At most this many answers are kept (a key per scope and query: start_date alone allows very many). */
  maxEntries?: number;
  /** At most this many bytes, bodies and compressed copies together. */
  maxBytes?: number;
}

interface Kept extends Answer {
  /** Bytes of the compressed copies made so far. */
  compressed: number;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const compress = (body: Buffer, encoding: Encoding): Promise<Buffer> =>
  encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_COMPRESSION.brotliQuality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body);

/**
 * Serialised answers by key, each good while the generation it was computed at is the current one
 * (so a ledger commit or a market update retires every answer at once, and no timer does). Callers
 * asking for a key while its answer is being computed wait for that one computation. The key must
 * name everything the answer depends on; bounded by count and bytes, least recently used first out.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Kept>;
  private readonly computing = new Map<string, { generation: number; answer: Promise<Kept> }>();

  constructor(
    private readonly changes: Generation,
    { maxEntries = 500, maxBytes = 64 * 1024 * 1024 }: AnswerCacheOptions = {},
  ) {
    this.answers = new LRUCache<string, Kept>({ max: maxEntries, maxSize: maxBytes });
  }

  /** The answer of `key` at the current generation; `compute` runs only when there is none. */
  get(key: string, compute: () => Promise<string | Buffer>): Promise<Answer> {
    const generation = this.changes.generation;
    const kept = this.answers.get(key);
    if (kept?.generation === generation) return Promise.resolve(kept);
    const pending = this.computing.get(key);
    if (pending?.generation === generation) return pending.answer;
    const answer = this.compute(key, generation, compute);
    this.computing.set(key, { generation, answer });
    return answer;
  }

  private async compute(key: string, generation: number, compute: () => Promise<string | Buffer>): Promise<Kept> {
    try {
      const made: Kept = { generation, body: Buffer.from(await compute()), encoded: new Map(), compressed: 0 };
      // Computed from an older generation's data, it is already out of date: given to its callers, not kept.
      if (this.changes.generation === generation) this.keep(key, made);
      return made;
    } finally {
      if (this.computing.get(key)?.generation === generation) this.computing.delete(key);
    }
  }

  /** The answer's body in this encoding, compressed once per answer. */
  encoded(key: string, answer: Answer, encoding: Encoding): Promise<Buffer> {
    let copy = answer.encoded.get(encoding);
    if (!copy) {
      copy = compress(answer.body, encoding);
      answer.encoded.set(encoding, copy);
      void copy.then(
        (b) => {
          const kept = this.answers.peek(key);
          if (kept !== answer) return;
          kept.compressed += b.length;
          this.keep(key, kept);
        },
        () => answer.encoded.delete(encoding),
      );
    }
    return copy;
  }

  /** How many answers are kept. */
  get size(): number {
    return this.answers.size;
  }

  private keep(key: string, answer: Kept): void {
    this.answers.set(key, answer, { size: answer.body.length + answer.compressed || 1 });
  }
}

const gzipAlias = /\*|x-gzip/g;

/** The encoding @fastify/compress would choose for this request (its own negotiation), or none. */
export function encodingFor(request: FastifyRequest): Encoding | undefined {
  if (request.headers['x-no-compression'] !== undefined) return undefined;
  const header = request.headers['accept-encoding'];
  if (header === undefined) return undefined;
  return negotiate(header.toLowerCase().replace(gzipAlias, 'gzip'), ANSWER_COMPRESSION.encodings) ?? undefined;
}

/**
 * Answers a request from the cache: on a miss, `compute` makes the answer and the route's response
 * schema serialises it (exactly what Fastify would have sent); then the body, or its copy in the
 * negotiated encoding, goes out as it is (a string or Buffer with a JSON content type is neither
 * serialised again nor compressed again).
 */
export async function sendCached(
  cache: AnswerCache,
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const answer = await cache.get(key, async () => reply.serialize(await compute()) as string | Buffer);
  const vary = reply.getHeader('vary');
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('vary', typeof vary === 'string' && vary !== '' ? `${vary}, accept-encoding` : 'accept-encoding');
  const encoding = encodingFor(request);
  if (!encoding || answer.body.length < ANSWER_COMPRESSION.threshold) return reply.send(answer.body);
  const body = await cache.encoded(key, answer, encoding);
  return reply.header('content-encoding', encoding).send(body);
}
