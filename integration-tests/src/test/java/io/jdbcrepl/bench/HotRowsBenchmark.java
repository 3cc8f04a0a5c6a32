package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Local writes on hot rows while the node drains a backlog (issue 17): {@code bench.hot.rows} (20)
 * rows, updated at node n1 in {@code bench.hot.backlog} (10,000) source transactions of
 * {@code bench.hot.perTx} (5) single-row updates of column {@code m} while n2's inbound server is
 * stopped ({@code repl.apply=false}); at n2, {@code bench.hot.threads} (8) application threads
 * update column {@code n} of the same rows, one row per transaction, for {@code bench.seconds} (5):
 * (A) with no backlog, (B) right after {@code startApply()}, while the backlog drains, (A') with no
 * backlog again. Per round: local tx/s of A, B, A'; B / mean(A, A') (the figure); A' / A (the
 * noise floor); and the drain rate in source transactions/s during B (from the sum of {@code m}
 * at n2) and after B, without local writes, until {@code waitForPeers}.
 * {@code bench.vendor}: POSTGRESQL (default) or MARIADB; {@code bench.batch}: repl.apply.batch.
 */
public final class HotRowsBenchmark {

    /** {@code bench.hot.disjoint=true}: the backlog updates other rows than the application (no lock waits: the control). */
    private static final boolean DISJOINT = Boolean.getBoolean("bench.hot.disjoint");

    private HotRowsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Vendor vendor = Vendor.valueOf(System.getProperty("bench.vendor", "POSTGRESQL"));
        int hot = Integer.getInteger("bench.hot.rows", 20);
        int backlog = Integer.getInteger("bench.hot.backlog", 10_000);
        int perTx = Integer.getInteger("bench.hot.perTx", 5);
        int threads = Integer.getInteger("bench.hot.threads", 8);
        int seconds = Integer.getInteger("bench.seconds", 5);
        int rounds = Integer.getInteger("bench.rounds", 3);
        int warmup = Integer.getInteger("bench.warmup", 5);
        try (TestDatabase source = TestDatabase.create(vendor, "bench_hot_src");
                TestDatabase dest = TestDatabase.create(vendor, "bench_hot_dst")) {
            for (TestDatabase db : List.of(source, dest)) {
                try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE hot (id BIGINT PRIMARY KEY, n BIGINT NOT NULL, m BIGINT NOT NULL)");
                    for (int id = 1; id <= 2 * hot; id++) s.execute("INSERT INTO hot VALUES (" + id + ", 0, 0)");
                }
            }
            Map<String, String> n2 = new LinkedHashMap<>();
            n2.put("repl.node", "n2");
            n2.put("repl.peers", "n1");
            n2.putAll(source.asPeer("n1"));
            n2.put("repl.apply", "false");
            if (System.getProperty("bench.batch") != null) n2.put("repl.apply.batch", System.getProperty("bench.batch"));
            String localUrl = dest.replUrl(n2);
            String sourceUrl = source.replUrl(Map.of("repl.node", "n1"));
            try (Connection adminConnection = DriverManager.getConnection(localUrl, dest.credentials())) {
                ReplAdmin admin = adminConnection.unwrap(ReplAdmin.class);
                local(localUrl, dest, threads, hot, warmup);
                List<double[]> results = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    double a = local(localUrl, dest, threads, hot, seconds);
                    long backlogStart = System.nanoTime();
                    backlog(sourceUrl, source, vendor, backlog, perTx, hot);
                    double backlogSeconds = (System.nanoTime() - backlogStart) / 1e9;
                    long total = sumM(source);
                    long m0 = sumM(dest);
                    admin.startApply();
                    double b = local(localUrl, dest, threads, hot, seconds);
                    long m1 = sumM(dest);
                    long restStart = System.nanoTime();
                    admin.waitForPeers(Duration.ofHours(1));
                    double restSeconds = (System.nanoTime() - restStart) / 1e9;
                    admin.stopApply();
                    long m2 = sumM(dest);
                    if (m2 != total) throw new IllegalStateException("applied " + m2 + " of " + total + " source updates");
                    double a2 = local(localUrl, dest, threads, hot, seconds);
                    double during = (m1 - m0) / (double) perTx / seconds;
                    double after = (m2 - m1) / (double) perTx / restSeconds;
                    double ratio = b / ((a + a2) / 2);
                    results.add(new double[] {a, b, a2, ratio, a2 / a, during, after});
                    System.out.printf(Locale.ROOT, "round %d: local tx/s A %.0f, B (draining) %.0f, A' %.0f; ratio B/mean(A,A') %.3f,"
                            + " noise A'/A %.3f; drain %.0f source tx/s during B (%d of %d left after B), %.0f tx/s after B"
                            + " (%.1f s); backlog written in %.1f s%n", round, a, b, a2, ratio, a2 / a, during,
                            (total - m1) / perTx, (total - m0) / perTx, after, restSeconds, backlogSeconds);
                }
                System.out.printf(Locale.ROOT, "%s, %d hot rows, %d local threads, backlog %d tx of %d updates, %d rounds of %d s:"
                        + " A %s, B %s tx/s; ratio %s; noise A'/A %s; drain during B %s, after B %s source tx/s%n", vendor,
                        hot, threads, backlog, perTx, rounds, seconds, stat(results, 0), stat(results, 1), stat(results, 3),
                        stat(results, 4), stat(results, 5), stat(results, 6));
            } finally {
                Repl.shutdown();
            }
        }
    }

    /** "median (min–max)" of column {@code i}. */
    private static String stat(List<double[]> rows, int i) {
        List<Double> v = new ArrayList<>();
        for (double[] r : rows) v.add(r[i]);
        Collections.sort(v);
        String f = v.get(v.size() - 1) < 10 ? "%.3f" : "%.0f";
        return String.format(Locale.ROOT, f + " (" + f + "–" + f + ")", v.get(v.size() / 2), v.get(0), v.get(v.size() - 1));
    }

    /** Application transactions per second at n2: each one UPDATE of a random hot row, committed. */
    private static double local(String url, TestDatabase dest, int threads, int hot, int seconds) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(url, dest.credentials());
                        PreparedStatement up = c.prepareStatement("UPDATE hot SET n = n + 1 WHERE id = ?")) {
                    c.setAutoCommit(false);
                    while (System.nanoTime() < end) {
                        try {
                            up.setLong(1, 1 + ThreadLocalRandom.current().nextInt(hot));
                            up.executeUpdate();
                            c.commit();
                            done.incrementAndGet();
                        } catch (SQLException e) {
                            c.rollback();
                            failed.incrementAndGet();
                        }
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) w.join();
        if (failed.get() > 0) System.out.println("  (" + failed.get() + " local transactions failed)");
        return done.get() / (double) seconds;
    }

    /** {@code txs} transactions at n1, each {@code perTx} updates of m on random hot rows, from 4 threads. */
    private static void backlog(String url, TestDatabase source, Vendor vendor, int txs, int perTx, int hot) throws Exception {
        int writers = 4;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            int share = txs / writers + (t < txs % writers ? 1 : 0);
            Thread w = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(url, source.credentials());
                        PreparedStatement up = c.prepareStatement("UPDATE hot SET m = m + 1 WHERE id = ?")) {
                    // the backlog's durability is not what is measured
                    if (vendor == Vendor.POSTGRESQL) c.createStatement().execute("SET synchronous_commit = off");
                    c.setAutoCommit(false);
                    for (int i = 0; i < share; i++) {
                        // rows in increasing order: no deadlock between the writers
                        int[] ids = ThreadLocalRandom.current().ints(1, hot + 1).distinct().limit(perTx).sorted().toArray();
                        for (int id : ids) {
                            up.setLong(1, DISJOINT ? id + hot : id);
                            up.executeUpdate();
                        }
                        c.commit();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) w.join();
    }

    private static long sumM(TestDatabase db) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(m) FROM hot")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
