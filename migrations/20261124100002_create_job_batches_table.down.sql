DROP TABLE job_batches;
