import { describe, expect, it } from 'vitest';
import { column } from '../../../../domain/data/columns.js';
import { defineModel, ModelDefinitionError } from '../../../../domain/data/model.js';
import { defineMorph, morphKeys } from '../../../../domain/data/morph.js';

const Post = defineModel('posts', { title: column.string() });
const Video = defineModel('videos', { title: column.string() });
const Commentable = defineMorph('commentable', { post: Post, video: Video });

describe('morphKeys', () => {
  it('gives the type and id columns for one of the morph\'s own types', () => {
    expect(morphKeys(Commentable, 'video', 7)).toEqual({ commentable_type: 'video', commentable_id: 7 });
  });

  // A type name taken from a form must not pass because every object has it.
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'page'])('refuses %s, which is not one of its types', (type) => {
    expect(() => morphKeys(Commentable, type as 'post', 1)).toThrow(ModelDefinitionError);
  });
});
