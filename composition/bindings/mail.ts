import type { Mailer } from '../../ports/mailer.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const MAIL_TOKENS = {
  mailer: token<Mailer>('Mailer'),
} as const;

/**
 * The mailer MAIL_URL names (SMTP's transport loaded only then; it registers its close).
 * `record` wraps it while debugging locally, so the request inspector sees every mail.
 */
export function mailArea(record: ((mailer: Mailer) => Mailer) | null) {
  return ({ container, adapters, onClose }: Binding): void => {
    provide(container, MAIL_TOKENS.mailer, [C.config, C.clock, C.database, C.logger], (config, clock, database, logger) => {
      const mailer = adapters.mailer({ config, clock, database, logger }, onClose);
      return record === null ? mailer : record(mailer);
    });
  };
}
