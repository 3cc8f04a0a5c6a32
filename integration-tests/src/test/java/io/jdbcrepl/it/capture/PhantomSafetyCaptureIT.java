package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.1 and the trap in ENGINEERING.md: while one transaction runs
 * {@code UPDATE t SET v = v + 1 WHERE k BETWEEN 50 AND 150}, other transactions insert and commit
 * rows in that range, and one of them holds a row of the range locked, moves a row out of the range
 * and another into it, and commits while the update waits for it. Afterwards every row the update
 * changed has exactly one UPDATE LCR of its transaction, no other row has one, the LCRs' values
 * are the values the rows had and got, and the update count equals the number of LCRs.
 * Repeated many times, each time with real concurrent transactions started together.
 */
class PhantomSafetyCaptureIT {

    private static final int ROUNDS = 30;
    private static final int INSERTERS = 3;
    private static final String UPDATE = "UPDATE t SET v = v + 1 WHERE k BETWEEN 50 AND 150";
    /**
     * The same change as a join update: the range comes from another table, whose two rows both
     * match the keys 100 to 150 (each such row is still updated once, by one of them).
     */
    private static final String UPDATE_FROM = "UPDATE t SET v = t.v + w.d FROM w WHERE t.k BETWEEN w.lo AND w.hi";

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @Test
    void concurrentInsertsIntoTheRangeAreNeverHalfCaptured() throws Exception {
        Sandbox box = CapturePair.create(databases, "phantom").sandbox("CREATE TABLE t (k int PRIMARY KEY, v int NOT NULL)");
        rounds(box, UPDATE);
    }

    /** {@code UPDATE … FROM}: the target's rows are locked in the statement's FROM subquery, under the same rules. */
    @Test
    void concurrentInsertsIntoTheRangeOfAJoinUpdateAreNeverHalfCaptured() throws Exception {
        Sandbox box = CapturePair.create(databases, "phantomfrom").sandbox("CREATE TABLE t (k int PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE w (lo int NOT NULL, hi int NOT NULL, d int NOT NULL, PRIMARY KEY (lo, hi))");
        box.seed("INSERT INTO w VALUES (50, 150, 1), (100, 150, 1)");
        rounds(box, UPDATE_FROM);
    }

    /**
     * The update as a data-modifying WITH query (as Hibernate writes bulk HQL on a JOINED hierarchy),
     * its count read by the main statement: the WITH query's rows are locked in it under the same rules.
     */
    @Test
    void concurrentInsertsIntoTheRangeOfADataModifyingWithQueryAreNeverHalfCaptured() throws Exception {
        Sandbox box = CapturePair.create(databases, "phantomwith").sandbox("CREATE TABLE t (k int PRIMARY KEY, v int NOT NULL)");
        rounds(box, "WITH ks AS MATERIALIZED (SELECT 50 AS lo, 150 AS hi), moved AS (UPDATE t SET v = v + 1"
                + " WHERE k BETWEEN (SELECT lo FROM ks) AND (SELECT hi FROM ks) RETURNING k) SELECT count(*) FROM moved");
    }

    /** A WITH before the UPDATE. */
    @Test
    void concurrentInsertsIntoTheRangeOfAnUpdateAfterAWithAreNeverHalfCaptured() throws Exception {
        Sandbox box = CapturePair.create(databases, "phantomwithmain").sandbox("CREATE TABLE t (k int PRIMARY KEY, v int NOT NULL)");
        rounds(box, "WITH ks AS (SELECT 50 AS lo, 150 AS hi) UPDATE t SET v = v + 1 FROM ks WHERE t.k BETWEEN ks.lo AND ks.hi");
    }

    private void rounds(Sandbox box, String update) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(1 + INSERTERS);
        List<Connection> inserters = new ArrayList<>();
        int sawInsertsBeforeTheSnapshot = 0;
        int sawInsertsAfterIt = 0;
        try (Connection a = box.capturing(); Connection b = box.capturing(); Connection raw = box.raw()) {
            for (int i = 0; i < INSERTERS; i++) inserters.add(box.capturing());
            int aPid = pid(a);
            for (int round = 0; round < ROUNDS; round++) {
                Round r = round(box, raw, a, aPid, b, inserters, threads, round, update);
                if (r.insertedRowsUpdated > 0) sawInsertsBeforeTheSnapshot++;
                if (r.insertedRowsNotUpdated > 0) sawInsertsAfterIt++;
            }
        } finally {
            threads.shutdownNow();
            for (Connection c : inserters) c.close();
        }
        // Not an assertion on timing, only a note on how much the rounds interleaved.
        System.out.printf("phantom rounds: %d with concurrent inserts before the update's snapshot, %d after it%n",
                sawInsertsBeforeTheSnapshot, sawInsertsAfterIt);
    }

    private record Round(int insertedRowsUpdated, int insertedRowsNotUpdated) {
    }

    private Round round(Sandbox box, Connection raw, Connection a, int aPid, Connection b, List<Connection> inserters,
            ExecutorService threads, int round, String update) throws Exception {
        try (Statement s = raw.createStatement()) {
            s.execute("TRUNCATE t");
            s.execute("TRUNCATE " + box.logSchema() + ".repl_log");
            s.execute("INSERT INTO t SELECT k, 0 FROM generate_series(0, 198, 2) AS k");
            s.execute("INSERT INTO t SELECT k, 0 FROM generate_series(1000, 1010) AS k");
        }
        // The blocker: holds row 60, moves 70 out of the range and 1002 into it, inserts 71 and 73.
        b.setAutoCommit(false);
        String txB;
        try (Statement s = b.createStatement()) {
            txB = currentTx(s);
            assertThat(s.executeUpdate("UPDATE t SET v = v + 100 WHERE k = 60")).isEqualTo(1);
            assertThat(s.executeUpdate("UPDATE t SET k = k + 1000 WHERE k = 70")).isEqualTo(1);
            assertThat(s.executeUpdate("INSERT INTO t VALUES (71, 0), (73, 0)")).isEqualTo(2);
            assertThat(s.executeUpdate("UPDATE t SET k = 75 WHERE k = 1002")).isEqualTo(1);
        }
        // Inserters: odd keys of the range, each row its own committed transaction.
        List<List<Integer>> keys = new ArrayList<>();
        for (int i = 0; i < INSERTERS; i++) keys.add(new ArrayList<>());
        int n = 0;
        for (int k = 51; k <= 149; k += 2) {
            if (k == 71 || k == 73 || k == 75) continue;
            keys.get(n++ % INSERTERS).add(k);
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> inserting = new ArrayList<>();
        for (int i = 0; i < INSERTERS; i++) {
            Connection c = inserters.get(i);
            List<Integer> mine = keys.get(i);
            inserting.add(threads.submit(() -> {
                go.await();
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (k, v) VALUES (?, 0)")) {
                    for (int k : mine) {
                        ps.setInt(1, k);
                        assertThat(ps.executeUpdate()).isEqualTo(1);
                    }
                }
                return null;
            }));
        }
        Future<String[]> updating = threads.submit(() -> {
            a.setAutoCommit(false);
            try (Statement s = a.createStatement()) {
                String tx = currentTx(s);
                go.countDown();
                int count = update.endsWith("SELECT count(*) FROM moved") ? count(s, update) : s.executeUpdate(update);
                a.commit();
                a.setAutoCommit(true);
                return new String[] {tx, Integer.toString(count)};
            }
        });
        awaitWaitingForALock(raw, aPid, updating);
        b.commit();
        b.setAutoCommit(true);
        String[] result = updating.get(60, TimeUnit.SECONDS);
        for (Future<?> f : inserting) f.get(60, TimeUnit.SECONDS);
        String txA = result[0];
        int updateCount = Integer.parseInt(result[1]);

        Map<Integer, Integer> rows = new HashMap<>();
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT k, v FROM t")) {
            while (rs.next()) rows.put(rs.getInt(1), rs.getInt(2));
        }
        Set<Integer> changed = new TreeSet<>();
        rows.forEach((k, v) -> {
            if (v % 100 == 1) changed.add(k);
        });
        List<LoggedLcr> log = box.log();
        List<LoggedLcr> ofA = log.stream().filter(l -> l.txId().equals(txA)).toList();
        String at = "round " + round + ": ";

        List<Integer> loggedKeys = new ArrayList<>();
        for (LoggedLcr l : ofA) {
            assertThat(l.command()).as(at + "%s", l).isEqualTo("UPDATE");
            assertThat(l.changeVector()).as(at + "%s", l).containsExactly("v");
            int k = ((Long) l.oldValues().get("k").value()).intValue();
            long oldV = (Long) l.oldValues().get("v").value();
            long newV = (Long) l.newValues().get("v").value();
            assertThat(l.newValues().asMap().keySet()).as(at + "%s", l).containsExactly("v");
            assertThat(newV).as(at + "new = old + 1 in %s", l).isEqualTo(oldV + 1);
            assertThat(rows.get(k)).as(at + "row %d holds the new value of %s", k, l).isEqualTo((int) newV);
            loggedKeys.add(k);
        }
        assertThat(loggedKeys).as(at + "one UPDATE LCR per row").doesNotHaveDuplicates();
        assertThat(new TreeSet<>(loggedKeys)).as(at + "rows with an UPDATE LCR (actual) vs rows the UPDATE changed (expected)")
                .isEqualTo(changed);
        assertThat(updateCount).as(at + "update count vs LCRs").isEqualTo(ofA.size());

        // What the update must and must not have changed, whatever the interleaving.
        Set<Integer> mustChange = new TreeSet<>();
        for (int k = 50; k <= 150; k += 2) if (k != 70) mustChange.add(k);
        assertThat(changed).as(at + "changed rows").containsAll(mustChange).doesNotContain(71, 73, 75, 1070);
        assertThat(rows.get(60)).as(at + "row 60: the blocker's +100, then the update's +1").isEqualTo(101);
        assertThat(ofA.stream().filter(l -> ((Long) l.oldValues().get("k").value()) == 60).findFirst().orElseThrow()
                .oldValues().get("v").value()).as(at + "old value of row 60: the committed one it waited for").isEqualTo(100L);

        // The other transactions' LCRs: the blocker's five, one INSERT per inserted row.
        assertThat(log.stream().filter(l -> l.txId().equals(txB)).map(LoggedLcr::command).toList()).as(at + "blocker's LCRs")
                .containsExactlyInAnyOrder("UPDATE", "UPDATE", "INSERT", "INSERT", "UPDATE");
        Set<Integer> insertedByInserters = new HashSet<>();
        keys.forEach(insertedByInserters::addAll);
        List<Integer> insertLcrs = log.stream().filter(l -> !l.txId().equals(txA) && !l.txId().equals(txB))
                .map(l -> {
                    assertThat(l.command()).isEqualTo("INSERT");
                    return ((Long) l.newValues().get("k").value()).intValue();
                }).toList();
        assertThat(insertLcrs).as(at + "one INSERT LCR per inserted row").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(insertedByInserters);
        assertThat(log).as(at + "nothing else is logged").hasSize(ofA.size() + 5 + insertedByInserters.size());

        int updatedInserted = 0;
        for (int k : insertedByInserters) if (changed.contains(k)) updatedInserted++;
        return new Round(updatedInserted, insertedByInserters.size() - updatedInserted);
    }

    /**
     * Concurrent upserts of the same new keys (INSERT … ON CONFLICT DO UPDATE): in each round four
     * transactions race to insert each of eight fresh keys, so most statements meet a row another
     * transaction inserted after the statement began. Each committed upsert must leave exactly one
     * LCR: one INSERT per key, then UPDATEs whose old value is the value before; the log replays
     * onto an empty table to exactly the final table.
     */
    @Test
    void concurrentUpsertsOfNewKeysAreCapturedExactly() throws Exception {
        Sandbox box = CapturePair.create(databases, "upsert").sandbox("CREATE TABLE c (k int PRIMARY KEY, n int NOT NULL)");
        int threadsCount = 4;
        int rounds = 12;
        ExecutorService threads = Executors.newFixedThreadPool(threadsCount);
        Map<Integer, Integer> committed = new java.util.concurrent.ConcurrentHashMap<>();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < threadsCount; i++) connections.add(box.capturing());
            for (int round = 0; round < rounds; round++) {
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threadsCount);
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < threadsCount; t++) {
                    Connection c = connections.get(t);
                    int thread = t;
                    int first = round * 8;
                    boolean inTransaction = (round + t) % 2 == 1;
                    work.add(threads.submit(() -> {
                        List<Integer> keys = new ArrayList<>();
                        for (int k = first; k < first + 8; k++) keys.add(k);
                        if (!inTransaction) java.util.Collections.shuffle(keys, new java.util.Random(thread * 31L + first));
                        c.setAutoCommit(!inTransaction);
                        start.await();
                        try (PreparedStatement ps = c.prepareStatement(
                                "INSERT INTO c (k, n) VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = c.n + 1")) {
                            for (int k : keys) { // ascending within a transaction: no deadlock
                                ps.setInt(1, k);
                                assertThat(ps.executeUpdate()).as("upsert of %d", k).isEqualTo(1);
                                if (!inTransaction) committed.merge(k, 1, Integer::sum);
                            }
                        }
                        if (inTransaction) {
                            c.commit();
                            for (int k : keys) committed.merge(k, 1, Integer::sum);
                            c.setAutoCommit(true);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
            for (Connection c : connections) c.close();
        }
        Map<Integer, Integer> rows = new HashMap<>();
        try (Connection raw = box.raw(); Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT k, n FROM c")) {
            while (rs.next()) rows.put(rs.getInt(1), rs.getInt(2));
        }
        assertThat(rows).as("every upsert counted once").isEqualTo(committed);
        List<LoggedLcr> log = box.log();
        Map<Integer, Integer> inserts = new HashMap<>();
        Map<Integer, Integer> updates = new HashMap<>();
        for (LoggedLcr l : log) {
            if (l.command().equals("INSERT")) {
                int k = ((Long) l.newValues().get("k").value()).intValue();
                inserts.merge(k, 1, Integer::sum);
                assertThat(l.newValues().get("n").value()).as("%s", l).isEqualTo(1L);
            } else {
                assertThat(l.command()).isEqualTo("UPDATE");
                int k = ((Long) l.oldValues().get("k").value()).intValue();
                updates.merge(k, 1, Integer::sum);
                assertThat(l.oldValues().get("n")).as("old value of n in %s", l).isNotNull();
                assertThat((Long) l.newValues().get("n").value()).as("%s", l).isEqualTo((Long) l.oldValues().get("n").value() + 1);
            }
        }
        Map<Integer, Integer> oneEach = new HashMap<>();
        rows.keySet().forEach(k -> oneEach.put(k, 1));
        assertThat(inserts).as("one INSERT LCR per key").isEqualTo(oneEach);
        Map<Integer, Integer> expectedUpdates = new HashMap<>();
        rows.forEach((k, n) -> {
            if (n > 1) expectedUpdates.put(k, n - 1);
        });
        assertThat(updates).as("UPDATE LCRs per key").isEqualTo(expectedUpdates);
        box.assertLogReplays(Map.of("c", List.of("k")), "c");
    }

    /** Waits (polling the server's view, bounded) until the backend {@code pid} waits for a lock. */
    private static void awaitWaitingForALock(Connection raw, int pid, Future<?> task) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (PreparedStatement ps = raw.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, pid);
            while (true) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && "Lock".equals(rs.getString(1))) return;
                }
                if (task.isDone()) {
                    task.get(); // rethrows its failure
                    throw new AssertionError("the UPDATE finished without waiting for the blocker's lock on row 60");
                }
                if (System.nanoTime() > deadline) throw new AssertionError("the UPDATE never waited for a lock");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // poll interval of a condition, not a synchronisation
            }
        }
    }

    private static int count(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String currentTx(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
