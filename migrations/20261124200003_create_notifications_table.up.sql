-- Notifications of the database channel: what a user is shown on fw/notifications.html until
-- marked as read. `data` is the notification's JSON.
CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  read_at datetime,
  created_at datetime NOT NULL
);
CREATE INDEX notifications_user_id_read_at_created_at_index ON notifications (user_id, read_at, created_at);
