package io.jdbcrepl.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Materialized views (issue 7's figures), on PostgreSQL (default), MariaDB or H2
 * ({@code -Dbench.vendor=postgresql|mariadb|h2}), all through {@code jdbc:repl:} without
 * {@code repl.node}:
 * <ol>
 * <li><b>refresh</b>: a 1,000,000-row master and, one after the other, an ON DEMAND fast-refresh view
 * of its rows ({@code select id, grp, val from m where val >= 0}) and one of its groups
 * ({@code select grp, count(*), sum(val) from m group by grp}, 100,000 groups). Each round changes 1%
 * of the rows (one UPDATE), then times the view's fast refresh and its complete refresh. On
 * PostgreSQL the view and the log are vacuumed before each fast refresh, as autovacuum would have
 * after the previous round's complete refresh. Target: fast at least 20x faster than complete.</li>
 * <li><b>on commit</b>: single-row UPDATE transactions (auto-commit) on a 100,000-row table with an ON
 * COMMIT fast-refresh view of its rows, against the same transactions on an identical table
 * without log and view, side by side ({@link Harness}). Target: throughput ratio at least 0.7.</li>
 * </ol>
 * Settings: bench.vendor, bench.rounds (5), bench.seconds (5), bench.warmup (5), bench.threads (1,4),
 * bench.workloads (refresh,commit).
 */
public final class MviewBenchmark {

    private static final int COMMIT_ROWS = 100_000;

    private final String vendor = System.getProperty("bench.vendor", "postgresql");
    private final String database = "repl_bench_mv_" + UUID.randomUUID().toString().substring(0, 8);
    private final PrintStream out = System.out;

    public static void main(String[] args) throws Exception {
        new MviewBenchmark().run();
    }

    private String rawUrl() {
        return switch (vendor) {
            case "postgresql" -> "jdbc:postgresql://" + CaptureBenchmark.env("PGHOST", "127.0.0.1") + ":"
                    + CaptureBenchmark.env("PGPORT", "5432") + "/" + database;
            case "mariadb" -> "jdbc:mariadb://127.0.0.1:3306/" + database;
            case "h2" -> "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
            default -> throw new IllegalArgumentException("bench.vendor=" + vendor + ": postgresql, mariadb or h2");
        };
    }

    private Properties credentials() {
        Properties p = new Properties();
        p.setProperty("user", switch (vendor) {
            case "postgresql" -> CaptureBenchmark.env("PGUSER", "postgres");
            case "mariadb" -> "root";
            default -> "sa";
        });
        p.setProperty("password", vendor.equals("postgresql") ? CaptureBenchmark.env("PGPASSWORD", "") : "");
        return p;
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:repl:" + rawUrl().substring("jdbc:".length()), credentials());
    }

    private void admin(String sql) throws SQLException {
        String url = switch (vendor) {
            case "postgresql" -> rawUrl().substring(0, rawUrl().lastIndexOf('/') + 1) + "postgres";
            case "mariadb" -> "jdbc:mariadb://127.0.0.1:3306/";
            default -> null;
        };
        if (url == null) return;
        try (Connection c = DriverManager.getConnection(url, credentials()); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private void run() throws Exception {
        int rows = 1_000_000;
        int rounds = Integer.getInteger("bench.rounds", 5);
        String named = System.getProperty("bench.workloads", "");
        List<String> workloads = Arrays.asList((named.isBlank() ? "refresh,commit" : named).split(","));
        out.printf(Locale.ROOT, "MviewBenchmark on %s, %s, %d cores, load %.2f%n", vendor, ZonedDateTime.now(),
                Runtime.getRuntime().availableProcessors(), load());
        admin("CREATE DATABASE " + database);
        try {
            if (workloads.contains("refresh")) refresh(rows, rounds);
            if (workloads.contains("commit")) onCommit(rounds);
        } finally {
            admin(vendor.equals("postgresql") ? "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)"
                    : "DROP DATABASE IF EXISTS " + database);
        }
    }

    private static double load() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private void fill(Connection c, String table, int rows, int groups) throws SQLException {
        exec(c, "CREATE TABLE " + table + " (id INT PRIMARY KEY, grp INT, val INT, pad VARCHAR(20))");
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
            for (int i = 1; i <= rows; i++) {
                ps.setInt(1, i);
                ps.setInt(2, i % groups);
                ps.setInt(3, i % 1000);
                ps.setString(4, "row " + i);
                ps.addBatch();
                if (i % 5000 == 0) ps.executeBatch();
            }
            ps.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
        exec(c, "CREATE INDEX " + table + "_grp ON " + table + " (grp)");
        if (vendor.equals("postgresql")) exec(c, "ANALYZE " + table);
    }

    private void refresh(int rows, int rounds) throws SQLException {
        try (Connection c = open()) {
            out.printf(Locale.ROOT, "%nrefresh: filling m with %,d rows%n", rows);
            fill(c, "m", rows, rows / 10);
            exec(c, "CREATE MATERIALIZED VIEW LOG ON m WITH PRIMARY KEY (grp, val) INCLUDING NEW VALUES");
            for (String view : List.of("mv_rows", "mv_groups")) {
                // one view at a time: the only fast view of its log, as in the seed's last remark
                exec(c, "CREATE MATERIALIZED VIEW " + view + " REFRESH FAST ON DEMAND AS " + (view.equals("mv_rows")
                        ? "SELECT id, grp, val FROM m WHERE val >= 0" : "SELECT grp, count(*) AS n, sum(val) AS s FROM m GROUP BY grp"));
                double[] fast = new double[rounds];
                double[] complete = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    int changed;
                    try (Statement s = c.createStatement()) {
                        // 1% of the rows, spread over the table
                        changed = s.executeUpdate("UPDATE m SET val = val + 1 WHERE MOD(id, 100) = " + r % 100);
                    }
                    // steady state: what autovacuum does after the previous round's complete refresh, done now
                    if (vendor.equals("postgresql")) exec(c, "VACUUM ANALYZE " + view + ", \"mlog$_m\"");
                    long t0 = System.nanoTime();
                    exec(c, "CALL DBMS_MVIEW.REFRESH('" + view + "', 'F')");
                    fast[r] = (System.nanoTime() - t0) / 1e6;
                    long t1 = System.nanoTime();
                    exec(c, "CALL DBMS_MVIEW.REFRESH('" + view + "', 'C')");
                    complete[r] = (System.nanoTime() - t1) / 1e6;
                    out.printf(Locale.ROOT, "  %s round %d: %,d rows changed, fast %.0f ms, complete %.0f ms, %.1fx (load %.2f)%n",
                            view, r + 1, changed, fast[r], complete[r], complete[r] / fast[r], load());
                }
                exec(c, "DROP MATERIALIZED VIEW " + view);
                out.printf(Locale.ROOT, "%s: fast refresh median %.0f ms, complete %.0f ms: complete/fast = %.1fx (target >= 20x)%n",
                        view, Harness.median(fast), Harness.median(complete), Harness.median(complete) / Harness.median(fast));
            }
        }
    }

    private void onCommit(int rounds) throws Exception {
        try (Connection c = open()) {
            out.printf(Locale.ROOT, "%non commit: two tables of %,d rows, one with an ON COMMIT view%n", COMMIT_ROWS);
            fill(c, "plain_t", COMMIT_ROWS, 1000);
            fill(c, "viewed_t", COMMIT_ROWS, 1000);
            exec(c, "CREATE MATERIALIZED VIEW LOG ON viewed_t WITH PRIMARY KEY (grp, val) INCLUDING NEW VALUES");
            exec(c, "CREATE MATERIALIZED VIEW mv_viewed REFRESH FAST ON COMMIT AS SELECT id, grp, val FROM viewed_t");
        }
        int seconds = Integer.getInteger("bench.seconds", 5);
        int warmup = Integer.getInteger("bench.warmup", 5);
        List<Harness.Result> results = new ArrayList<>();
        String threadList = System.getProperty("bench.threads", "");
        for (String t : (threadList.isBlank() || threadList.equals("4,8") ? "1,4" : threadList).split(",")) {
            int threads = Integer.parseInt(t.trim());
            ThreadLocal<Connection> plain = ThreadLocal.withInitial(this::openUnchecked);
            ThreadLocal<Connection> viewed = ThreadLocal.withInitial(this::openUnchecked);
            Harness.Settings settings = new Harness.Settings(threads, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds), rounds);
            Harness.Result result = Harness.run("single-row update transaction", settings, List.of(
                    new Harness.Variant("no view", () -> update(plain.get(), "plain_t")),
                    new Harness.Variant("ON COMMIT view", () -> update(viewed.get(), "viewed_t"))), out);
            Harness.print(result, out);
            results.add(result);
        }
        for (Harness.Result r : results) {
            out.printf(Locale.ROOT, "ON COMMIT view, %d threads: throughput ratio %.2f (rounds %.2f-%.2f), target >= 0.7%n",
                    r.settings().threads(), r.ratioOfMedians(1), Harness.min(r.roundRatios(1)), Harness.max(r.roundRatios(1)));
        }
    }

    private Connection openUnchecked() {
        try {
            return open();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET val = val + 1 WHERE id = ?")) {
            ps.setInt(1, ThreadLocalRandom.current().nextInt(1, COMMIT_ROWS + 1));
            if (ps.executeUpdate() != 1) throw new IllegalStateException("row not updated");
        }
    }
}
