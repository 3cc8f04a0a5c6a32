package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.Vendor;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/** The replicated table {@code item} and writers that insert, update and delete their own rows of it. */
final class Workload {

    private Workload() {
    }

    static List<String> itemDdl(Vendor vendor) {
        String ts = vendor.isMariaDbServer() ? "DATETIME(6)" : "TIMESTAMP(6)";
        return List.of("CREATE TABLE item (id BIGINT PRIMARY KEY, name VARCHAR(100), amount DECIMAL(12,2), flag BOOLEAN,"
                + " ts " + ts + ", d DATE, ratio DOUBLE PRECISION, n INTEGER NOT NULL)");
    }

    /**
     * {@code threads} writers on {@code pool}, each running {@code transactions} transactions on rows
     * of its own: two inserts, an update of an earlier row, now and then a delete.
     */
    static void run(DataSource pool, int node, int threads, int transactions) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long base = (node + 1) * 1_000_000L + t * 10_000L;
                futures.add(executor.submit(() -> writer(pool, base, transactions)));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            executor.shutdownNow();
        }
    }

    private static Void writer(DataSource pool, long base, int transactions) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            long next = base;
            for (int k = 0; k < transactions; k++) {
                try (PreparedStatement ins = c.prepareStatement("INSERT INTO item (id, name, amount, flag, ts, d, ratio, n)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, 0)")) {
                    for (int r = 0; r < 2; r++) {
                        ins.setLong(1, next++);
                        ins.setString(2, r == 0 ? "item " + next : null);
                        ins.setBigDecimal(3, BigDecimal.valueOf(random.nextLong(1_000_000), 2));
                        ins.setBoolean(4, random.nextBoolean());
                        ins.setTimestamp(5, Timestamp.valueOf("2026-12-03 10:11:12.123456"));
                        ins.setObject(6, LocalDate.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28)));
                        ins.setDouble(7, random.nextDouble());
                        ins.executeUpdate();
                    }
                }
                try (PreparedStatement up = c.prepareStatement("UPDATE item SET n = n + 1, amount = amount + 1.25,"
                        + " name = 'updated' WHERE id = ?")) {
                    up.setLong(1, base + random.nextLong(next - base));
                    up.executeUpdate();
                }
                if (k % 5 == 4) {
                    try (PreparedStatement del = c.prepareStatement("DELETE FROM item WHERE id = ?")) {
                        del.setLong(1, base + random.nextLong(next - base));
                        del.executeUpdate();
                    }
                }
                c.commit();
            }
        }
        return null;
    }
}
