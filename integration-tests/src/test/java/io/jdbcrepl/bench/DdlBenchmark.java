package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * DDL replication (SPEC 8.3, issue 20): a migration on a {@code bench.ddl.rows} (1,000,000) row
 * table while {@code bench.ddl.rate} (200) transactions/s go on through the driver at the source.
 * Two nodes of one vendor ({@code bench.ddl.vendors}: {@code postgresql,mariadb}) start with the
 * same rows; the source's writers update a random row and a marker row holding the send time, and
 * the peer's applier runs in this JVM. Per round and statement (an instant one, ADD COLUMN with a
 * default, and one that rewrites the table, a column's type change), the statement runs through
 * the source's driver connection; reported: the same statement's time run raw on a third copy of
 * the table (the baseline), and the time from the statement's end at the source until a marker
 * transaction shows up at the peer less than 50 ms after it was sent. The bar: that time
 * within the baseline plus 5 s.
 */
public final class DdlBenchmark {

    private static final long CAUGHT_UP_MICROS = 50_000;

    private final int rows = Integer.getInteger("bench.ddl.rows", 1_000_000);
    private final int rate = Integer.getInteger("bench.ddl.rate", 200);
    private final int rounds = Integer.getInteger("bench.rounds", 3);
    private final List<String> vendors = List.of(System.getProperty("bench.ddl.vendors", "postgresql,mariadb").split(","));
    private final PrintStream out = System.out;

    public static void main(String[] args) throws Exception {
        new DdlBenchmark().run();
    }

    void run() throws Exception {
        out.println("DdlBenchmark " + ZonedDateTime.now().withNano(0) + ", java " + Runtime.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " processors; " + rows + " rows, " + rate
                + " source transactions/s, " + rounds + " rounds, " + vendors);
        for (String name : vendors) {
            Vendor v = name.trim().equals("mariadb") ? Vendor.MARIADB : Vendor.POSTGRESQL;
            TestDatabase a = TestDatabase.create(v, "ddlbench_a");
            TestDatabase b = TestDatabase.create(v, "ddlbench_b");
            TestDatabase raw = TestDatabase.create(v, "ddlbench_raw");
            try {
                for (TestDatabase db : List.of(a, b, raw)) seed(db);
                String urlA = a.replUrl(Map.of("repl.node", "n1", "repl.apply", "false"));
                Map<String, String> bProps = new java.util.LinkedHashMap<>(Map.of("repl.node", "n2", "repl.peers", "n1",
                        "repl.apply.poll", "20ms"));
                bProps.putAll(a.asPeer("n1"));
                String urlB = b.replUrl(bProps);
                DriverManager.getConnection(urlA, a.credentials()).close();
                try (Connection keep = DriverManager.getConnection(urlB, b.credentials())) { // n2's applier runs meanwhile
                    MarkerWriters writers = new MarkerWriters(urlA, a.credentials(), rate, rows,
                            "UPDATE account SET branch = branch + 1 WHERE id = ?", (ps, id) -> ps.setLong(1, id), out);
                    try {
                        TimeUnit.SECONDS.sleep(3);
                        for (int round = 1; round <= rounds; round++) {
                            String column = "c" + round;
                            measure(v, round, "ADD COLUMN " + column + " INT DEFAULT 7 NOT NULL", urlA, a, b, raw,
                                    "ALTER TABLE account ADD COLUMN " + column + " INT DEFAULT 7 NOT NULL");
                            String type = round % 2 == 1 ? "BIGINT" : "INT";
                            measure(v, round, "score to " + type + " (rewrites the table)", urlA, a, b, raw,
                                    v == Vendor.MARIADB ? "ALTER TABLE account MODIFY score " + type
                                            : "ALTER TABLE account ALTER COLUMN score TYPE " + type);
                        }
                    } finally {
                        writers.stop();
                    }
                    out.printf(Locale.ROOT, "%s: source at %.0f transactions/s%n", v, writers.rate());
                }
            } finally {
                Repl.shutdown();
                a.close();
                b.close();
                raw.close();
            }
        }
    }

    private void measure(Vendor v, int round, String what, String urlA, TestDatabase a, TestDatabase b, TestDatabase raw,
            String sql) throws Exception {
        long t0 = System.nanoTime();
        try (Connection c = raw.openRaw(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
        double baseline = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(urlA, a.credentials()); Statement s = c.createStatement()) {
            s.execute(sql);
        }
        long ended = System.nanoTime();
        double source = (ended - t1) / 1e9;
        double caughtUp = caughtUp(b, ended);
        out.printf(Locale.ROOT, "round %d %s %s: raw %.2f s, through the driver at the source %.2f s, peer caught up"
                + " (lag < 50 ms) %.2f s after it; bar raw + 5 s: %s%n", round, v, what, baseline, source, caughtUp,
                caughtUp <= baseline + 5 ? "met" : "MISSED");
    }

    /** Seconds from {@code since} until the peer holds a marker sent less than 50 ms before it was read. */
    private double caughtUp(TestDatabase b, long since) throws Exception {
        try (Connection c = b.openRaw(); PreparedStatement ps = c.prepareStatement("SELECT sent_us FROM marker WHERE id = 1")) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (MarkerWriters.nowMicros() - rs.getLong(1) < CAUGHT_UP_MICROS) return (System.nanoTime() - since) / 1e9;
                }
                if (!c.getAutoCommit()) c.commit();
                TimeUnit.MILLISECONDS.sleep(5);
            }
        }
        throw new IllegalStateException("the peer did not catch up in 10 minutes");
    }

    private void seed(TestDatabase db) throws SQLException {
        boolean pg = db.vendor() == Vendor.POSTGRESQL;
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id BIGINT PRIMARY KEY, branch INT NOT NULL, score INT, holder VARCHAR(100) NOT NULL,"
                    + " balance NUMERIC(14, 2) NOT NULL)");
            s.execute("CREATE TABLE marker (id INT PRIMARY KEY, sent_us BIGINT NOT NULL)");
            s.execute("INSERT INTO marker VALUES (1, 0)");
            if (pg) {
                s.execute("INSERT INTO account SELECT g, g % 1000, (g * 37) % 100000, 'account holder ' || g,"
                        + " round((g % 100000) * 1.37, 2) FROM generate_series(1, " + rows + ") g");
                s.execute("VACUUM ANALYZE account");
            } else {
                s.execute("INSERT INTO account SELECT seq, seq % 1000, (seq * 37) % 100000, CONCAT('account holder ', seq),"
                        + " ROUND((seq % 100000) * 1.37, 2) FROM seq_1_to_" + rows);
            }
        }
    }

}
