-- psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE capprobe_pg"; psql -h 127.0.0.1 -U postgres -d capprobe_pg -f setup.sql
CREATE TABLE bench_branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88));
CREATE TABLE bench_tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL, filler char(84));
CREATE TABLE bench_accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84));
INSERT INTO bench_branches SELECT g, 0 FROM generate_series(1, 10) g;
INSERT INTO bench_tellers SELECT g, (g - 1) % 10 + 1, 0 FROM generate_series(1, 100) g;
INSERT INTO bench_accounts SELECT g, (g - 1) % 10 + 1, 0 FROM generate_series(1, 100000) g;
-- l0: repl_log as the driver creates it; l1: index on tx_id only; l2: no index; l3: without column_types, user_name, created_at
CREATE TABLE repl_log_l0 (position bigserial NOT NULL, tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(), source_node varchar(128) NOT NULL, command_type varchar(6) NOT NULL, schema_name varchar(128), table_name varchar(128) NOT NULL, old_values json, new_values json, column_types json NOT NULL, change_vector json, user_name varchar(128) NOT NULL DEFAULT current_user, tag bytea, created_at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (tx_id, position));
CREATE TABLE repl_log_l1 (LIKE repl_log_l0 INCLUDING DEFAULTS); CREATE INDEX ON repl_log_l1 (tx_id);
CREATE TABLE repl_log_l2 (LIKE repl_log_l0 INCLUDING DEFAULTS);
CREATE TABLE repl_log_l3 (position bigserial NOT NULL, tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(), source_node varchar(128) NOT NULL, command_type varchar(6) NOT NULL, schema_name varchar(128), table_name varchar(128) NOT NULL, old_values json, new_values json, change_vector json, tag bytea, PRIMARY KEY (tx_id, position));
CREATE TABLE bench_history (hid bigserial PRIMARY KEY, tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
VACUUM ANALYZE;
