import { Routes, TOKENS, column, createDefaultApp, defineModel, json, key } from '../../../composition/index.js';
import type { App, AppOptions, RowOf } from '../../../composition/index.js';

export const Product = defineModel(
  'products',
  { id: key.integer(), name: column.string(), price: column.money(), tags: column.json<string[]>().default([]), supplier_code: column.encrypted().nullable() },
  { softDeletes: true },
);
export type Product = RowOf<typeof Product>;

export const shop = new Routes()
  .get('/products', async (ctx) => {
    const search = ctx.query['q'];
    const products = await ctx
      .service(TOKENS.db)
      .query(Product)
      .when(typeof search === 'string' ? search : '', (q, text) => q.whereLike('name', `%${text}%`))
      .where('price', '<=', 10_000)
      .latest()
      .limit(50)
      .get();
    return json(products.map(({ id, name, price }) => ({ id, name, price })));
  })
  .post('/products/{id}/discount', async (ctx) => {
    const db = ctx.service(TOKENS.db);
    const changed = await db.transaction((tx) => tx.query(Product).where('id', ctx.params.int('id')).increment('price', -100));
    return json({ changed });
  });

export const buildShop = (options: AppOptions): App => createDefaultApp(options).module({ name: 'shop', routes: shop });
