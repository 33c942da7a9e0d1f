-- Batches of jobs dispatched together (`jobs.batch(…)`): their counts, and the jobs to
-- dispatch when the batch succeeds (then_job), first fails (catch_job) and ends (finally_job),
-- stored as the JSON the queue takes. Finished batches go with queue:prune-batches.
CREATE TABLE job_batches (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  total INTEGER NOT NULL,
  succeeded INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  then_job TEXT,
  catch_job TEXT,
  finally_job TEXT,
  created_at datetime NOT NULL,
  finished_at datetime
);
CREATE INDEX job_batches_finished_at_index ON job_batches (finished_at);
