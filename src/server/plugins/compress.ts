import zlib from 'node:zlib';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import { ANSWER_COMPRESSION } from '#server/http/answer-cache.ts';

/**
 * Brotli or gzip for every response over 1 kB (an account's deal history shrinks about tenfold);
 * a fast brotli level, as JSON answers are compressed on every request. The built client ships
 * precompressed (.br, .gz beside each file), served as is (static-client.ts).
 */
export const compressPlugin = fp(
  async (app) => {
    await app.register(compress, {
      encodings: ANSWER_COMPRESSION.encodings,
      threshold: ANSWER_COMPRESSION.threshold,
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_COMPRESSION.brotliQuality } },
    });
  },
  { name: 'compress-setup' },
);
