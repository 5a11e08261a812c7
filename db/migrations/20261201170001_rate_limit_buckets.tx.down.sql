DROP TABLE rate_limit_buckets;
