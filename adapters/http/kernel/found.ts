import { foundQuery } from '../../../domain/http/routing/model-binding.js';
import type { RecordFinder } from '../../../ports/record-finder.js';
import { HttpAbort } from './http-error.js';
import type { Model } from '../model.js';
import type { RequestContext } from './request-context.js';
import { KernelMisuse } from './context.js';

/**
 * `ctx.found(Model)`: the row the route's parameter names, under the model's scope and soft
 * deletes, or the handler stops with 404. A key that cannot parse is a 404 without a query.
 * A route the model cannot bind to is the programmer's mistake: 500 naming route and model.
 */
export async function findBoundRow<Row>(ctx: RequestContext, records: RecordFinder, model: Model<Row>, param?: string): Promise<Row> {
  const scope = model.scope === null ? {} : await model.scope(ctx);
  const query = foundQuery(model.binding, ctx.params.all, scope, param);
  switch (query.kind) {
    case 'misuse':
      throw new KernelMisuse('http.bad-model-binding', `The route ${ctx.route.path} cannot find a '${model.binding.table}' row: ${query.reason}`);
    case 'no-row':
      throw new HttpAbort(404, '');
    case 'find': {
      const row = await records.findOne({ table: query.table, where: query.where, ...(model.definition ? { model: model.definition } : {}) });
      if (row === null) throw new HttpAbort(404, '');
      return row as Row;
    }
  }
}
