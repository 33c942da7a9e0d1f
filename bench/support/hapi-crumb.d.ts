/** @hapi/crumb ships no types: the plugin as the peers bench registers it. */
declare module '@hapi/crumb' {
  import type { Plugin } from '@hapi/hapi';

  const crumb: Plugin<{ key?: string; cookieOptions?: Record<string, unknown> }>;
  export default crumb;
}
