import type { Storage } from '../../ports/storage.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const STORAGE_TOKENS = {
  /** The app's storage disks (FILESYSTEM_DISK, S3_*): `ctx.service(TOKENS.storage).disk('public')`. */
  storage: token<Storage>('Storage'),
} as const;

/** The disks; S3's SDK is loaded only when S3_BUCKET is set. Local temporary links are signed with APP_KEY's key. */
export function bindStorage({ container, adapters, keys }: Binding): void {
  provide(container, STORAGE_TOKENS.storage, [C.config, C.clock, C.database, C.logger], (config, clock, database, logger) =>
    adapters.storage({ config, clock, database, logger }, keys.signedUrls),
  );
}
