DROP TABLE schedule_runs;
