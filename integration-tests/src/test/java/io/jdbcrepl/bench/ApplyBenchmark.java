package io.jdbcrepl.bench;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;

/**
 * Apply throughput (issue 4, figure 2): a backlog of {@code bench.rows} inserted rows, 10 per source
 * transaction, drained by the inbound server of a second node, against a raw JDBC batched upsert of
 * the same rows (batches of 500, one commit per batch) into the same database. Prints rows per
 * second of both and their ratio. {@code bench.vendor}: POSTGRESQL (default) or MARIADB.
 */
public final class ApplyBenchmark {

    private ApplyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rows = Integer.getInteger("bench.rows", 100_000);
        Vendor vendor = Vendor.valueOf(System.getProperty("bench.vendor", "POSTGRESQL"));
        try (TestDatabase source = TestDatabase.create(vendor, "bench_apply_src");
                TestDatabase dest = TestDatabase.create(vendor, "bench_apply_dst")) {
            String ddl = "CREATE TABLE item (id BIGINT PRIMARY KEY, name VARCHAR(100), amount DECIMAL(12,2), n INTEGER NOT NULL)";
            for (TestDatabase db : new TestDatabase[] {source, dest}) {
                try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                    s.execute(ddl);
                    s.execute(ddl.replace("item", "raw_item"));
                }
            }
            try (Connection c = DriverManager.getConnection(source.replUrl(Map.of("repl.node", "n1")), source.credentials());
                    PreparedStatement ins = c.prepareStatement("INSERT INTO item (id, name, amount, n) VALUES (?, ?, ?, 0)")) {
                ApplyNodes.writeItems(c, ins, rows, 10); // source transactions of 10 rows
            }
            double applySeconds = ApplyNodes.drain(dest, "n2", source, Map.of());

            String upsert = vendor == Vendor.POSTGRESQL
                    ? "INSERT INTO raw_item (id, name, amount, n) VALUES (?, ?, ?, 0) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name,"
                            + " amount = EXCLUDED.amount, n = EXCLUDED.n"
                    : "INSERT INTO raw_item (id, name, amount, n) VALUES (?, ?, ?, 0) ON DUPLICATE KEY UPDATE name = VALUES(name),"
                            + " amount = VALUES(amount), n = VALUES(n)";
            long start = System.nanoTime();
            try (Connection c = dest.openRaw(); PreparedStatement ps = c.prepareStatement(upsert)) {
                ApplyNodes.writeItems(c, ps, rows, 500);
            }
            double rawSeconds = (System.nanoTime() - start) / 1e9;
            try (Connection c = dest.openRaw(); Statement s = c.createStatement();
                    var rs = s.executeQuery("SELECT count(*) FROM item")) {
                rs.next();
                if (rs.getLong(1) != rows) throw new IllegalStateException("applied " + rs.getLong(1) + " of " + rows + " rows");
            }
            System.out.printf(Locale.ROOT, "%s, %d rows in transactions of 10: apply %.0f rows/s (%.1f s), raw batched upsert %.0f rows/s"
                    + " (%.1f s), ratio %.2f%n", vendor, rows, rows / applySeconds, applySeconds, rows / rawSeconds, rawSeconds,
                    rawSeconds / applySeconds);
        }
    }
}
