package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.verify.TableVerifier;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 5's convergence test: three nodes applying from each other while two threads per node
 * update the same few rows at random: {@code val} (last writer wins: MAXIMUM on the driver's
 * {@code repl.timestamp} column {@code ts}, list val, ts) and the counter {@code hits} (DELTA).
 * After {@code wait}: no error queue, the nodes identical (TableVerifier), every counter the sum
 * of the increments committed on all nodes, and every conflict in {@code repl_conflict}: replaying
 * each node's history of a row from the logs (its own updates, its peers' LCRs, and for the LCRs
 * that repl_conflict names the row it met) gives one unbroken chain from the first row to the last
 * one. hits grows with every change at a node, so it orders the chain; an LCR that conflicted but
 * is missing from repl_conflict would start from a row the node never had.
 */
class ConvergenceIT extends ClusterTest {

    private static final int ROWS = 4;
    private static final int THREADS_PER_NODE = 2;
    private static final int TRANSACTIONS_PER_THREAD = 60;

    static Map<String, String> handlers() {
        return Map.of("repl.timestamp.acct", "ts",
                "repl.handler.last.table", "acct", "repl.handler.last.type", "MAXIMUM",
                "repl.handler.last.columns", "val,ts", "repl.handler.last.resolution", "ts",
                "repl.handler.count.table", "acct", "repl.handler.count.type", "DELTA",
                "repl.handler.count.columns", "hits");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trios")
    void randomConcurrentUpdatesConverge(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("converge", vendors.toArray(Vendor[]::new)), handlers());
        List<String> ddl = new ArrayList<>();
        for (int id = 1; id <= ROWS; id++) ddl.add("INSERT INTO acct VALUES (" + id + ", 0, 0, '2020-01-01 00:00:00')");
        cluster.ddl(v -> Stream.concat(Stream.of("CREATE TABLE acct (id INT PRIMARY KEY, val BIGINT NOT NULL,"
                + " hits BIGINT NOT NULL, ts " + timestampType(v) + " NOT NULL)"),
                ddl.stream()).toList());

        AtomicLongArray increments = new AtomicLongArray(ROWS + 1);
        ExecutorService pool = Executors.newFixedThreadPool(cluster.size() * THREADS_PER_NODE);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int node = 0; node < cluster.size(); node++) {
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    int n = node;
                    long firstVal = (node + 1) * 1_000_000L + t * 100_000L;
                    writers.add(pool.submit(() -> write(n, firstVal, increments)));
                }
            }
            for (Future<?> w : writers) w.get();
        } finally {
            pool.shutdownNow();
        }
        cluster.waitForAll();

        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.rows(i, "repl_error", "id")).as("error queue at " + Cluster.name(i)).isEmpty();
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict WHERE outcome IN ('FAILED', 'NO_HANDLER')"))
                    .as("unresolved conflicts at " + Cluster.name(i)).isZero();
        }
        assertIdentical();
        for (int id = 1; id <= ROWS; id++) {
            for (int i = 0; i < cluster.size(); i++) {
                assertThat(cluster.count(i, "SELECT hits FROM acct WHERE id = " + id))
                        .as("hits of row " + id + " at " + Cluster.name(i)).isEqualTo(increments.get(id));
            }
        }
        long conflicts = 0;
        for (int i = 0; i < cluster.size(); i++) conflicts += assertEveryConflictRecorded(i);
        assertThat(conflicts).as("conflicts met (the test must make some)").isPositive();
        System.out.printf("ConvergenceIT %s: %d LCRs met a conflict%n", vendors, conflicts);
    }

    /** One writer: single-row updates and, one in five, two rows in one transaction (in key order). */
    private Void write(int node, long firstVal, AtomicLongArray increments) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long val = firstVal;
        try (Connection c = cluster.open(node);
                PreparedStatement ps = c.prepareStatement("UPDATE acct SET val = ?, hits = hits + ? WHERE id = ?")) {
            c.setAutoCommit(false);
            for (int done = 0; done < TRANSACTIONS_PER_THREAD; ) {
                int first = 1 + random.nextInt(ROWS);
                List<Integer> ids = random.nextInt(5) == 0 && first < ROWS ? List.of(first, first + 1) : List.of(first);
                List<Integer> added = new ArrayList<>();
                try {
                    for (int id : ids) {
                        int by = 1 + random.nextInt(5);
                        ps.setLong(1, ++val);
                        ps.setInt(2, by);
                        ps.setInt(3, id);
                        assertThat(ps.executeUpdate()).isEqualTo(1);
                        added.add(by);
                    }
                    c.commit();
                } catch (SQLException e) {
                    c.rollback();
                    if (e.getSQLState() == null || !e.getSQLState().startsWith("40")) throw e;
                    continue; // a deadlock with an applier: the database chose this transaction, do it again
                }
                for (int k = 0; k < ids.size(); k++) increments.addAndGet(ids.get(k), added.get(k));
                done++;
                Thread.sleep(random.nextInt(4));
            }
        }
        return null;
    }

    private void assertIdentical() throws SQLException {
        List<Connection> connections = new ArrayList<>();
        try {
            List<TableVerifier.Side> sides = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                TestDatabase db = cluster.db(i);
                Connection c = db.openRaw();
                connections.add(c);
                sides.add(new TableVerifier.Side(Cluster.name(i), c,
                        db.vendor().isMariaDbServer() ? Dialect.named("mariadb") : Dialect.named("postgresql")));
            }
            TableVerifier.Report report = new TableVerifier(20).compare(sides, "acct");
            assertThat(report.differences()).as("rows differing between the nodes").isEmpty();
            assertThat(report.agree()).isTrue();
            assertThat(report.nodes()).allSatisfy(n -> assertThat(n.rows()).isEqualTo(ROWS));
        } finally {
            for (Connection c : connections) c.close();
        }
    }

    /** A change of a row at a node: from (hits, val) to (hits, val); a conflict's val is either side's. */
    private record Change(String what, long fromHits, long fromVal, long toHits, List<Long> toVals) {
    }

    private record Lcr(long position, Map<String, Object> oldValues, Map<String, Object> newValues) {
    }

    /** Replays node i's changes of each row; returns how many LCRs conflicted there. */
    private long assertEveryConflictRecorded(int i) throws SQLException {
        Map<String, Map<Long, Map<String, Object>>> metBySource = new HashMap<>(); // source -> position -> row before
        try (Connection c = cluster.db(i).openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                cluster.db(i).driverTables("SELECT source_database, source_position, row_before FROM repl_conflict"
                        + " WHERE table_name = 'acct'"))) {
            while (rs.next()) {
                metBySource.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getLong(2), values(rs.getString(3)));
            }
        }
        Map<Long, List<Change>> byRow = new HashMap<>();
        for (int j = 0; j < cluster.size(); j++) {
            Map<Long, Map<String, Object>> met = metBySource.getOrDefault(Cluster.name(j), Map.of());
            for (Lcr lcr : updates(j)) {
                long id = number(lcr.oldValues(), "id");
                long oldHits = number(lcr.oldValues(), "hits");
                long newHits = number(lcr.newValues(), "hits");
                long newVal = number(lcr.newValues(), "val");
                Map<String, Object> before = j == i ? null : met.get(lcr.position());
                String what = Cluster.name(j) + " LCR " + lcr.position() + (before != null ? " (conflict)" : "");
                Change change = before == null
                        ? new Change(what, oldHits, number(lcr.oldValues(), "val"), newHits, List.of(newVal))
                        : new Change(what, number(before, "hits"), number(before, "val"),
                                number(before, "hits") + newHits - oldHits, List.of(number(before, "val"), newVal));
                byRow.computeIfAbsent(id, k -> new ArrayList<>()).add(change);
            }
        }
        for (long id = 1; id <= ROWS; id++) {
            List<Change> changes = byRow.getOrDefault(id, List.of());
            changes.sort(java.util.Comparator.comparingLong(Change::fromHits));
            long hits = 0;
            long val = 0;
            String at = Cluster.name(i) + " row " + id;
            for (int k = 0; k < changes.size(); k++) {
                Change ch = changes.get(k);
                assertThat(List.of(ch.fromHits(), ch.fromVal())).as(at + ": the row " + ch.what() + " changed")
                        .containsExactly(hits, val);
                hits = ch.toHits();
                if (ch.toVals().size() == 1) {
                    val = ch.toVals().get(0);
                } else {
                    long next = k + 1 < changes.size() ? changes.get(k + 1).fromVal()
                            : cluster.count(i, "SELECT val FROM acct WHERE id = " + id);
                    assertThat(ch.toVals()).as(at + ": val after " + ch.what()).contains(next);
                    val = next;
                }
            }
            assertThat(cluster.count(i, "SELECT hits FROM acct WHERE id = " + id)).as(at + ": hits").isEqualTo(hits);
            assertThat(cluster.count(i, "SELECT val FROM acct WHERE id = " + id)).as(at + ": val").isEqualTo(val);
        }
        return metBySource.values().stream().mapToLong(Map::size).sum();
    }

    /** The UPDATE LCRs of acct in node j's log. */
    private List<Lcr> updates(int j) throws SQLException {
        List<Lcr> out = new ArrayList<>();
        try (Connection c = cluster.db(j).openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                cluster.db(j).driverTables("SELECT position, old_values, new_values FROM repl_log"
                        + " WHERE table_name = 'acct' AND command_type = 'UPDATE'"))) {
            while (rs.next()) out.add(new Lcr(rs.getLong(1), values(rs.getString(2)), values(rs.getString(3))));
        }
        return out;
    }

    private static Map<String, Object> values(String json) {
        Map<String, Object> out = new HashMap<>();
        Json.readObject(json).forEach((k, v) -> out.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return out;
    }

    private static long number(Map<String, Object> values, String column) {
        Object v = values.get(column);
        assertThat(v).as(column + " in " + values).isNotNull();
        return new BigDecimal(v.toString()).longValueExact();
    }
}
