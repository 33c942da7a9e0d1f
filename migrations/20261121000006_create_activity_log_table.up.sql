-- An append-only audit trail. `user_id` has no foreign key on purpose: the trail outlives the
-- users it mentions, and still says who did what after an account is deleted.
CREATE TABLE activity_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event TEXT NOT NULL,
  user_id INTEGER,
  data TEXT NOT NULL DEFAULT '{}',
  ip_address TEXT,
  request_id TEXT,
  created_at datetime NOT NULL
);
CREATE INDEX activity_log_user_id_created_at_index ON activity_log (user_id, created_at);
CREATE INDEX activity_log_event_created_at_index ON activity_log (event, created_at);
