/**
 * Spec 001's tables again, on the second transport: the same kernel behind its WHATWG fetch
 * handler (`app.fetch`), served by node:http on a real socket (HTTP_TRANSPORT=fetch). A real
 * socket rather than direct calls, so the rows that depend on the wire (a chunked body cut off
 * at the limit, a Host header that is no host, Set-Cookie lines, HEAD) are checked as a
 * browser meets them, exactly as on hapi.
 */
process.env['HTTP_TRANSPORT'] = 'fetch';
await import('./spec-001-tables.test.js');
