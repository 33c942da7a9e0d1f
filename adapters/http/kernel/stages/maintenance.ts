import {
  MAINTENANCE_BYPASS_COOKIE,
  bypassCookieValid,
  maintenanceAnswer,
  maintenanceBypassCookie,
  parseMaintenanceMarker,
} from '../../../../domain/http/maintenance/maintenance.js';
import type { Clock } from '../../../../ports/clock.js';
import type { Logger } from '../../../../ports/logger.js';
import type { MaintenanceSwitch } from '../../../../ports/maintenance-switch.js';
import { SetCookie } from '../cookies.js';
import { HttpAbort } from '../http-error.js';
import { Redirect, combine } from '../replies.js';
import type { Stage } from '../pipeline.js';

/** How long a browser that visited `/<SECRET>` stays let in. */
const BYPASS_SECONDS = 12 * 60 * 60;

export interface MaintenanceStageOptions {
  maintenance: MaintenanceSwitch;
  key: Buffer;
  clock: Clock;
  logger: Logger;
}

/**
 * Stage 5, after views (so the 503 is a page) and before the timeout guard: while the marker
 * exists, every request gets 503 with Retry-After, except a browser holding the bypass cookie
 * from a visit to `/<SECRET>`. `/health` and public files answered before this stage.
 */
export function maintenanceStage(options: MaintenanceStageOptions): Stage {
  let warned = false;
  // Not an async function: while up (nearly always) it hands over to the next stage directly.
  return (ctx, next) => {
    const text = options.maintenance.read();
    if (text === null) return next();
    const marker = parseMaintenanceMarker(text);
    if (marker.damaged && !warned) {
      warned = true;
      options.logger.warn('the maintenance marker is damaged: the app stays down and nobody can bypass it; run `fwx down` again or `fwx up`');
    }
    const now = options.clock.now();
    const hasValidBypass =
      marker.secret !== null && bypassCookieValid(ctx.cookies.get(MAINTENANCE_BYPASS_COOKIE), { key: options.key, secret: marker.secret, now });
    const answer = maintenanceAnswer({ path: ctx.path, isPublicFile: false, hasValidBypass, marker });
    switch (answer.kind) {
      case 'pass':
        return next();
      case 'bypass-set': {
        const value = maintenanceBypassCookie({ key: options.key, secret: marker.secret as string, now, ttlSeconds: BYPASS_SECONDS });
        return Promise.resolve(combine(Redirect.to('/'), SetCookie.make(MAINTENANCE_BYPASS_COOKIE, value).maxAge(BYPASS_SECONDS)));
      }
      case 'unavailable':
        return Promise.reject(new HttpAbort(503, '', { 'retry-after': String(answer.retryAfterSeconds) }));
    }
  };
}
