\set aid random(1, 100000)
\set delta random(-5000, 5000)
WITH repl_changed AS (UPDATE bench_accounts SET "abalance" = abalance + :delta WHERE aid = :aid RETURNING abalance) SELECT count(*) FROM repl_changed;
