\set aid random(1, 100000)
\set delta random(-5000, 5000)
WITH repl_changed AS (UPDATE bench_accounts SET "abalance" = abalance + :delta FROM (SELECT bench_accounts."aid" AS repl_o1, bench_accounts."abalance" AS repl_o2 FROM bench_accounts WHERE aid = :aid FOR UPDATE OF bench_accounts) AS repl_old WHERE bench_accounts."aid" = repl_old.repl_o1 RETURNING bench_accounts."abalance", repl_old.repl_o1, repl_old.repl_o2) SELECT count(*) FROM repl_changed;
