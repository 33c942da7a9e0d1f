import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { Db } from '../../adapters/persistence/mikro-orm/models/db.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { column, key } from '../../domain/data/columns.js';
import { defineModel, ModelDefinitionError } from '../../domain/data/model.js';
import { defineMorph, morphKeys } from '../../domain/data/morph.js';
import { definePivot } from '../../domain/data/pivot.js';
import { createTableSql } from '../../domain/data/table-sql.js';
import { deriveAppKeys } from '../../domain/security/app-keys.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';

/*
 * Pivots (many-to-many through a pivot table) and polymorphic relations, on a SQLite file and
 * on PostgreSQL: the same rows, the same answers, the statements counted.
 */

const Post = defineModel('pm_posts', { id: key.integer(), title: column.string() }, { softDeletes: true });
const Tag = defineModel('pm_tags', { id: key.ulid(), label: column.string(), team_id: column.integer().default(1) }, { scope: ({ team }) => (typeof team === 'number' ? { team_id: team } : null) });
const Video = defineModel('pm_videos', { id: key.uuid(), name: column.string() }, { timestamps: false });
const Comment = defineModel('pm_comments', { id: key.integer(), body: column.string(), commentable_type: column.string().nullable(), commentable_id: column.string().nullable() }, { timestamps: false });

const PostTags = definePivot('pm_post_tag', Post, 'post_id', Tag, 'tag_id', { columns: { role: column.enum(['topic', 'series']).default('topic'), position: column.integer().nullable() }, timestamps: true });
const TagPosts = definePivot('pm_post_tag', Tag, 'tag_id', Post, 'post_id', { columns: { role: column.enum(['topic', 'series']).default('topic'), position: column.integer().nullable() }, timestamps: true });
const Commentable = defineMorph('commentable', { post: Post, video: Video });

const PIVOT_SQL = {
  sqlite: `CREATE TABLE "pm_post_tag" ("post_id" INTEGER NOT NULL, "tag_id" TEXT NOT NULL, "role" TEXT NOT NULL, "position" INTEGER, "created_at" TEXT, "updated_at" TEXT, PRIMARY KEY ("post_id", "tag_id"))`,
  postgres: `CREATE TABLE "pm_post_tag" ("post_id" BIGINT NOT NULL, "tag_id" TEXT NOT NULL, "role" TEXT NOT NULL, "position" BIGINT, "created_at" TIMESTAMPTZ, "updated_at" TIMESTAMPTZ, PRIMARY KEY ("post_id", "tag_id"))`,
};
const START = '2026-11-25T10:00:00.000Z';

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`pivots and morphs on ${engine.name}`, () => {
    const database = useMigratedDatabase(engine);
    const clock = new FixedClock(START);
    let db: Db;

    beforeAll(async () => {
      await database().raw.session(async (sql) => {
        for (const model of [Post, Tag, Video, Comment]) await sql.exec(`DROP TABLE IF EXISTS "${model.table}"; ${createTableSql(model, engine.name)}`);
        await sql.exec(`DROP TABLE IF EXISTS "pm_post_tag"; ${PIVOT_SQL[engine.name]}`);
        await sql.exec(`DROP TABLE IF EXISTS "pm_loose"; CREATE TABLE "pm_loose" ("post_id" BIGINT NOT NULL, "tag_id" TEXT NOT NULL)`);
      });
      db = await Db.open(database(), { models: [Post, Tag, Video, Comment], box: new AesGcmSecretBox(deriveAppKeys(Buffer.alloc(32, 7)).modelEncryption, new CryptoRandomSource()), clock });
    });

    beforeEach(async () => {
      clock.set(START);
      await database().raw.session(async (sql) => {
        for (const table of ['pm_post_tag', 'pm_loose', ...[Post, Tag, Video, Comment].map((model) => model.table)]) await sql.exec(`DELETE FROM "${table}"`);
      });
    });

    /** Counts the statements `work` sends. */
    const statements = async (work: () => Promise<unknown>): Promise<number> => {
      const spy = vi.spyOn(database().orm.em.getConnection(), 'execute');
      try {
        await work();
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };

    /** A transaction on SQLite first takes the write lock with one statement of its own (see Db.transaction). */
    const lock = engine.name === 'sqlite' ? 1 : 0;

    const seed = async () => {
      const posts = [await db.create(Post, { title: 'First' }), await db.create(Post, { title: 'Second' }), await db.create(Post, { title: 'Empty' })];
      const tags = [await db.create(Tag, { label: 'alpha' }), await db.create(Tag, { label: 'beta' }), await db.create(Tag, { label: 'gamma' }), await db.create(Tag, { label: 'other team', team_id: 2 })];
      return { posts: posts as [typeof posts[0], typeof posts[0], typeof posts[0]], tags: tags as [typeof tags[0], typeof tags[0], typeof tags[0], typeof tags[0]] };
    };
    const links = async () => (await db.sql('select post_id, tag_id, role, position from pm_post_tag order by post_id, tag_id').fetchAs<Record<string, unknown>>()).map((row) => `${Number(row['post_id'])}:${String(row['tag_id'])}:${String(row['role'])}:${row['position'] === null ? '-' : Number(row['position'])}`);

    describe('pivots', () => {
      it('attach and attachWith write one statement, keep one link per pair, and set the pivot values given', async () => {
        const { posts, tags } = await seed();
        const [first] = posts;
        const [alpha, beta, gamma] = tags;
        expect(await statements(() => db.pivot(PostTags).attach(first.id, [alpha.id, beta.id]))).toBe(1);
        expect(await statements(() => db.pivot(PostTags).attach(first.id, [alpha.id]))).toBe(1);
        expect(await links()).toEqual([`${first.id}:${alpha.id}:topic:-`, `${first.id}:${beta.id}:topic:-`].sort());
        expect(await statements(() => db.pivot(PostTags).attachWith(first.id, new Map([[beta.id, { role: 'series' as const, position: 2 }], [gamma.id, { position: 3 }]])))).toBe(1);
        expect(await links()).toEqual([`${first.id}:${alpha.id}:topic:-`, `${first.id}:${beta.id}:series:2`, `${first.id}:${gamma.id}:topic:3`].sort());
        await expect(db.pivot(PostTags).attach(first.id, [alpha.id], { colour: 'red' } as never)).rejects.toMatchObject({ code: 'unknown_column' });
        await expect(db.pivot(PostTags).attach(first.id, [alpha.id], { role: 'nope' } as never)).rejects.toMatchObject({ code: 'bad_value' });
      });

      it('detach removes the listed links, or every link of the left row, in one statement', async () => {
        const { posts, tags } = await seed();
        const [first, second] = posts;
        await db.pivot(PostTags).attach(first.id, [tags[0].id, tags[1].id, tags[2].id]);
        await db.pivot(PostTags).attach(second.id, [tags[0].id]);
        let removed = 0;
        expect(await statements(async () => (removed = await db.pivot(PostTags).detach(first.id, [tags[0].id])))).toBe(1);
        expect(removed).toBe(1);
        expect(await db.pivot(PostTags).detach(first.id, [])).toBe(0);
        expect(await db.pivot(PostTags).detach(first.id)).toBe(2);
        expect(await links()).toEqual([`${second.id}:${tags[0].id}:topic:-`]);
      });

      it('sync leaves exactly the listed links, reports the changes, and rolls back as a whole', async () => {
        const { posts, tags } = await seed();
        const [first, second] = posts;
        const [alpha, beta, gamma] = tags;
        await db.pivot(PostTags).attach(first.id, [alpha.id, beta.id]);
        await db.pivot(PostTags).attach(second.id, [alpha.id]);
        let result = { attached: [] as string[], detached: [] as string[], kept: [] as string[] };
        expect(await statements(async () => (result = await db.pivot(PostTags).sync(first.id, [beta.id, gamma.id])))).toBe(3 + lock);
        expect(result).toEqual({ attached: [gamma.id], detached: [alpha.id], kept: [beta.id] });
        expect(await links()).toEqual([`${first.id}:${beta.id}:topic:-`, `${first.id}:${gamma.id}:topic:-`, `${second.id}:${alpha.id}:topic:-`].sort());
        expect(await statements(() => db.pivot(PostTags).sync(first.id, [beta.id, gamma.id]))).toBe(1 + lock);
        await db.pivot(PostTags).sync(first.id, new Map([[gamma.id, { role: 'series' as const, position: 1 }]]));
        expect(await links()).toEqual([`${first.id}:${gamma.id}:series:1`, `${second.id}:${alpha.id}:topic:-`].sort());
        await expect(db.pivot(PostTags).sync(first.id, new Map([[alpha.id, {}], [beta.id, { role: 'bogus' as never }]]))).rejects.toMatchObject({ code: 'bad_value' });
        await expect(db.transaction(async (tx) => {
          await tx.pivot(PostTags).sync(first.id, []);
          throw new Error('stop');
        })).rejects.toThrow('stop');
        expect(await links()).toEqual([`${first.id}:${gamma.id}:series:1`, `${second.id}:${alpha.id}:topic:-`].sort());
        expect((await db.pivot(PostTags).sync(first.id, [])).detached).toEqual([gamma.id]);
      });

      it('toggle detaches the attached and attaches the others', async () => {
        const { posts, tags } = await seed();
        const [first] = posts;
        const [alpha, beta] = tags;
        await db.pivot(PostTags).attach(first.id, [alpha.id]);
        let result = { attached: [] as string[], detached: [] as string[] };
        expect(await statements(async () => (result = await db.pivot(PostTags).toggle(first.id, [alpha.id, beta.id])))).toBe(3 + lock);
        expect(result).toEqual({ attached: [beta.id], detached: [alpha.id] });
        expect(await links()).toEqual([`${first.id}:${beta.id}:topic:-`]);
      });

      it('loadWithPivot gives each left row its right rows with the link values, in one statement, under scopes and soft deletes', async () => {
        const { posts, tags } = await seed();
        const [first, second, empty] = posts;
        const [alpha, beta, gamma, otherTeam] = tags;
        clock.advance(5000);
        await db.pivot(PostTags).attachWith(first.id, new Map([[beta.id, { role: 'series' as const, position: 1 }], [alpha.id, { position: 2 }], [otherTeam.id, {}]]));
        await db.pivot(PostTags).attach(second.id, [gamma.id]);
        let loaded = new Map<number, Array<{ label: string; pivot: { role: string; position: number | null; created_at?: unknown } }>>();
        expect(await statements(async () => (loaded = await db.withScope({ team: 1 }).pivot(PostTags).loadWithPivot(posts)))).toBe(1);
        expect(loaded.get(first.id)?.map((tag) => [tag.label, tag.pivot.role, tag.pivot.position]).sort()).toEqual([
          ['alpha', 'topic', 2],
          ['beta', 'series', 1],
        ]);
        expect(loaded.get(first.id)?.find((tag) => tag.label === 'alpha')?.pivot.created_at).toEqual(new Date(Date.parse(START) + 5000));
        expect(loaded.get(second.id)?.map((tag) => tag.label)).toEqual(['gamma']);
        expect(loaded.get(empty.id)).toEqual([]);
        const narrowed = await db.pivot(PostTags).loadWithPivot([first], (q) => q.whereLike('label', 'B%'));
        expect(narrowed.get(first.id)?.map((tag) => tag.label)).toEqual(['beta']);
        expect(await statements(() => db.pivot(PostTags).loadWithPivot([]))).toBe(0);
        // The other direction over the same table: soft-deleted posts are left out.
        await db.delete(Post, second);
        const postsOf = await db.pivot(TagPosts).loadWithPivot([alpha, gamma]);
        expect(postsOf.get(alpha.id)?.map((post) => post.title)).toEqual(['First']);
        expect(postsOf.get(gamma.id)).toEqual([]);
      });

      it('a pivot table without a unique index on both keys is an InvalidQuery; definitions are checked', async () => {
        const Loose = definePivot('pm_loose', Post, 'post_id', Tag, 'tag_id');
        const { posts, tags } = await seed();
        await expect(db.pivot(Loose).attach(posts[0].id, [tags[0].id])).rejects.toMatchObject({ code: 'no_unique_columns' });
        expect(() => definePivot('pm_post_tag', Post, 'post_id', Tag, 'post_id')).toThrow(ModelDefinitionError);
        expect(() => definePivot('pm_post_tag', Post, 'post_id', Tag, 'tag_id', { columns: { tag_id: column.string() } })).toThrow(/one of the keys/u);
      });
    });

    describe('morphs', () => {
      it('morphTo loads each child its row, one statement per type named; morphMany one statement', async () => {
        const post = await db.create(Post, { title: 'A post' });
        const gone = await db.create(Post, { title: 'Gone' });
        const video = await db.create(Video, { name: 'A video' });
        await db.query(Comment).insertMany([
          { body: 'on post', ...morphKeys(Commentable, 'post', post.id), commentable_id: String(post.id) },
          { body: 'on video', ...morphKeys(Commentable, 'video', video.id) },
          { body: 'on post again', commentable_type: 'post', commentable_id: String(post.id) },
          { body: 'on deleted post', commentable_type: 'post', commentable_id: String(gone.id) },
          { body: 'loose', commentable_type: null, commentable_id: null },
        ] as never);
        await db.delete(Post, gone);
        const comments = await db.query(Comment).orderBy('id').get();
        let parents = new Map<object, { type: string; row: { id: unknown } } | null>();
        expect(await statements(async () => (parents = await db.relations.morphTo(comments, Commentable)))).toBe(2);
        expect(comments.map((comment) => { const parent = parents.get(comment); return parent ? `${parent.type}:${String(parent.row.id)}` : null; })).toEqual([`post:${post.id}`, `video:${video.id}`, `post:${post.id}`, null, null]);
        let children = new Map<number, Array<{ body: string }>>();
        expect(await statements(async () => (children = await db.relations.morphMany([post, gone], Commentable, 'post', Comment)))).toBe(1);
        expect(children.get(post.id)?.map((comment) => comment.body)).toEqual(['on post', 'on post again']);
        expect(children.get(gone.id)?.map((comment) => comment.body)).toEqual(['on deleted post']);
        const forVideo = await db.relations.morphMany([video], Commentable, 'video', Comment, (q) => q.whereLike('body', '%VIDEO%'));
        expect(forVideo.get(video.id)?.map((comment) => comment.body)).toEqual(['on video']);
        expect(await db.query(Comment).where(morphKeys(Commentable, 'video', video.id) as never).count()).toBe(1);
      });

      it('an unknown type name is an InvalidQuery, and a morph is checked when defined', async () => {
        await db.query(Comment).create({ body: 'odd', commentable_type: 'photo', commentable_id: '1' });
        const comments = await db.query(Comment).get();
        await expect(db.relations.morphTo(comments, Commentable)).rejects.toMatchObject({ code: 'bad_value' });
        await expect(db.relations.morphMany([], Commentable, 'photo' as never, Comment)).rejects.toMatchObject({ code: 'bad_value' });
        expect(() => defineMorph('commentable', {})).toThrow(ModelDefinitionError);
        expect(() => defineMorph('commentable', { a: Post, b: Post })).toThrow(/named twice/u);
      });
    });
  });
}
