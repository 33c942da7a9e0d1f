CREATE TABLE notifications (
  id text PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  read_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX notifications_user_id_read_at_created_at_index ON notifications (user_id, read_at, created_at);
