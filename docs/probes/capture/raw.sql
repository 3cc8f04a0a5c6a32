\set aid random(1, 100000)
\set delta random(-5000, 5000)
UPDATE bench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
