import { FrameworkError } from '../shared/errors.js';

/** `findOrFail`/`firstOrFail` found no row: the HTTP layer answers 404. */
export class RecordNotFound extends FrameworkError {
  constructor(readonly table: string) {
    super('data.record-not-found', `No '${table}' row matches`);
  }
}
