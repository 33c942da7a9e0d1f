import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { User } from '../../../../domain/users/user.js';

/** Maps the plain domain class onto table `users` (columns in snake_case). */
export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  properties: {
    // bigint on PostgreSQL, which its driver hands back as a string unless told otherwise.
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    name: { type: 'string' },
    email: { type: 'string' },
    passwordHash: { type: 'string', fieldName: 'password', nullable: true },
    emailVerifiedAt: { type: 'Date', nullable: true },
    sessionEpoch: { type: 'number' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});
