CREATE TABLE job_batches (
  id text PRIMARY KEY,
  name text NOT NULL,
  total integer NOT NULL,
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  then_job text,
  catch_job text,
  finally_job text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX job_batches_finished_at_index ON job_batches (finished_at);
