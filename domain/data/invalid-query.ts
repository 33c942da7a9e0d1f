import { FrameworkError } from '../shared/errors.js';

/** Why a query was refused; stable, so an app (and its tests) can tell the cases apart. */
export type InvalidQueryCode =
  | 'unknown_column'
  | 'bad_operator'
  | 'update_sets_key'
  | 'encrypted_condition'
  | 'bad_value'
  | 'no_unique_columns'
  | 'not_searchable';

/**
 * The spec's 'invalid query' error: a query naming a column the model does not have, an
 * operator outside the list, or an update that sets `id`. Raised when the query runs, before
 * any SQL is sent, so nothing is half written.
 */
export class InvalidQuery extends FrameworkError<InvalidQueryCode> {
  constructor(code: InvalidQueryCode, message: string) {
    super(code, message);
  }
}
