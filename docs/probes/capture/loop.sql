-- per-statement server time in one backend: the branch update raw vs captured, alternating, 20000 each
CREATE OR REPLACE FUNCTION probe_loop(n int) RETURNS TABLE(variant text, us_per_stmt numeric) LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; raw_t interval := '0'; cap_t interval := '0'; i int; b int;
BEGIN
  FOR i IN 1..n LOOP
    b := 1 + i % 10;
    t0 := clock_timestamp();
    UPDATE bench_branches SET bbalance = bbalance + 1 WHERE bid = b;
    raw_t := raw_t + (clock_timestamp() - t0);
    t0 := clock_timestamp();
    WITH repl_changed AS (UPDATE bench_branches SET "bbalance" = bbalance + 1 FROM (SELECT bench_branches."bid" AS repl_o1, bench_branches."bbalance" AS repl_o2 FROM bench_branches WHERE bid = b FOR UPDATE OF bench_branches) AS repl_old WHERE bench_branches."bid" = repl_old.repl_o1 RETURNING bench_branches."bbalance", repl_old.repl_o1, repl_old.repl_o2) INSERT INTO repl_log_l0 (source_node, command_type, schema_name, table_name, old_values, new_values, column_types, change_vector) SELECT 'bench', 'UPDATE', 'public', 'bench_branches', json_build_object('bid', repl_changed.repl_o1, 'bbalance', repl_changed.repl_o2), json_build_object('bbalance', repl_changed.bbalance), '{"bid":"INTEGER","bbalance":"INTEGER"}'::json, '["bbalance"]'::json FROM repl_changed;
    cap_t := cap_t + (clock_timestamp() - t0);
  END LOOP;
  RETURN QUERY SELECT 'raw', round(extract(epoch FROM raw_t) * 1e6 / n, 1) UNION ALL SELECT 'captured', round(extract(epoch FROM cap_t) * 1e6 / n, 1);
END $$;
