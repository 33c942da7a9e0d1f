/** `findOrFail`/`firstOrFail` found no row: the HTTP layer answers 404. */
export class RecordNotFound extends Error {
  override readonly name = 'RecordNotFound';
  constructor(readonly table: string) {
    super(`No '${table}' row matches`);
  }
}
