import zlib from 'node:zlib';
import compress from 'koa-compress';

/**
 * gzip and brotli for every compressible response (JSON, CSV streams, HTML), as the client's
 * Accept-Encoding asks; bodies under 1 KB go as they are. Responses that are already encoded (the
 * cached public views, the precompressed built assets) pass through untouched.
 */
export function compressResponses() {
  return compress({
    threshold: 1024,
    gzip: { level: 6 },
    // Quality 4: most of brotli's gain at a speed close to gzip's (11 costs ~20× the CPU).
    br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    deflate: false,
  });
}
