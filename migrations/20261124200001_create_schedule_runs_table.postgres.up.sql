CREATE TABLE schedule_runs (
  task text NOT NULL,
  trigger text NOT NULL,
  slot timestamptz NOT NULL,
  holder text NOT NULL,
  status text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  error text,
  PRIMARY KEY (task, trigger, slot)
);
CREATE INDEX schedule_runs_task_started_at_index ON schedule_runs (task, started_at);
CREATE INDEX schedule_runs_started_at_index ON schedule_runs (started_at);
