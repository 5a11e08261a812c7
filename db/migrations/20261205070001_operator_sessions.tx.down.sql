DROP TABLE IF EXISTS operator_sessions_ended;
