-- One row per scheduled task and slot: the scheduler that inserts it runs the slot, every other
-- one finds it there and does nothing. `trigger` keeps `schedule:run` runs apart from the slots.
CREATE TABLE schedule_runs (
  task TEXT NOT NULL,
  trigger TEXT NOT NULL,
  slot datetime NOT NULL,
  holder TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at datetime NOT NULL,
  finished_at datetime,
  error TEXT,
  PRIMARY KEY (task, trigger, slot)
);
CREATE INDEX schedule_runs_task_started_at_index ON schedule_runs (task, started_at);
CREATE INDEX schedule_runs_started_at_index ON schedule_runs (started_at);
