\set aid random(1, 100000)
\set bid random(1, 10)
\set tid random(1, 100)
\set delta random(-5000, 5000)
BEGIN;
UPDATE bench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM bench_accounts WHERE aid = :aid;
UPDATE bench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE bench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO bench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
