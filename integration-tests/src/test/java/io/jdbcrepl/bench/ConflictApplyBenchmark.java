package io.jdbcrepl.bench;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Apply throughput with conflicts (issue 5's figure): one backlog at node n1 of
 * {@code bench.conflict.txs} source transactions of {@code bench.conflict.size} single-row updates,
 * each row updated once, drained by two destinations started from the same rows: n2 as they are
 * (no conflict), n3 where the first row of every tenth transaction was changed locally beforehand
 * (10% of the transactions conflict, each once, resolved by MAXIMUM on the {@code repl.timestamp}
 * column: the LCR wins). Same backlog, same run, the two drains one after the other (their order
 * alternating by round), {@code bench.conflict.rounds} rounds; prints each round's rows per second
 * and the ratio conflicting / clean, then the median and spread of the ratios ({@code bench.conflict.warmup}
 * smaller rounds before, not counted, warm the JIT).
 * {@code bench.vendor}: POSTGRESQL (default) or MARIADB.
 */
public final class ConflictApplyBenchmark {

    private ConflictApplyBenchmark() {
    }

    private static final String TABLE = "CREATE TABLE item (id BIGINT PRIMARY KEY, name VARCHAR(100), amount DECIMAL(12,2),"
            + " n INTEGER NOT NULL, ts %s NOT NULL)";

    public static void main(String[] args) throws Exception {
        int txs = Integer.getInteger("bench.conflict.txs", 10_000);
        int size = Integer.getInteger("bench.conflict.size", 5);
        int rounds = Integer.getInteger("bench.conflict.rounds", 3);
        int warmup = Integer.getInteger("bench.conflict.warmup", 1);
        Vendor vendor = Vendor.valueOf(System.getProperty("bench.vendor", "POSTGRESQL"));
        for (int round = 1; round <= warmup; round++) round(vendor, Math.min(txs, 2_000), size, round % 2 == 0); // JIT
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double[] perSecond = round(vendor, txs, size, round % 2 == 0);
            double ratio = perSecond[1] / perSecond[0];
            ratios.add(ratio);
            System.out.printf(Locale.ROOT, "round %d (%s first): clean %.0f LCRs/s, 10%% conflicting %.0f LCRs/s, ratio %.2f%n",
                    round, round % 2 == 0 ? "conflicting" : "clean", perSecond[0], perSecond[1], ratio);
        }
        Collections.sort(ratios);
        System.out.printf(Locale.ROOT, "%s, %d transactions of %d updates, %d rounds: ratio median %.2f (min %.2f, max %.2f)%n",
                vendor, txs, size, rounds, ratios.get(ratios.size() / 2), ratios.get(0), ratios.get(ratios.size() - 1));
    }

    /** One round; LCRs per second of the clean and of the conflicting destination. */
    private static double[] round(Vendor vendor, int txs, int size, boolean conflictingFirst) throws Exception {
        int rows = txs * size;
        Map<String, String> handlers = Map.of("repl.timestamp.item", "ts", "repl.handler.last.table", "item",
                "repl.handler.last.type", "MAXIMUM", "repl.handler.last.columns", "amount,ts",
                "repl.handler.last.resolution", "ts");
        try (TestDatabase source = TestDatabase.create(vendor, "bench_conflict_src");
                TestDatabase clean = TestDatabase.create(vendor, "bench_conflict_a");
                TestDatabase conflicting = TestDatabase.create(vendor, "bench_conflict_b")) {
            for (TestDatabase db : List.of(source, clean, conflicting)) {
                try (Connection c = db.openRaw(); Statement s = c.createStatement();
                        PreparedStatement ins = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?, 0, '2020-01-01 00:00:00')")) {
                    s.execute(String.format(TABLE, vendor.isMariaDbServer() ? "DATETIME(6)" : "TIMESTAMP(6)"));
                    ApplyNodes.writeItems(c, ins, rows, 1000);
                }
            }
            Map<String, String> n1 = new LinkedHashMap<>(handlers);
            n1.put("repl.node", "n1");
            try (Connection c = DriverManager.getConnection(source.replUrl(n1), source.credentials());
                    PreparedStatement up = c.prepareStatement("UPDATE item SET amount = amount + 1, n = n + 1 WHERE id = ?")) {
                c.setAutoCommit(false);
                for (int id = 1; id <= rows; id++) {
                    up.setLong(1, id);
                    up.addBatch();
                    if (id % size == 0) {
                        up.executeBatch();
                        c.commit();
                    }
                }
            }
            // the first row of every tenth transaction, changed at n3 before it applies (older time: the LCR wins)
            try (Connection c = conflicting.openRaw();
                    PreparedStatement up = c.prepareStatement("UPDATE item SET amount = -1, ts = '2019-01-01 00:00:00' WHERE id = ?")) {
                c.setAutoCommit(false);
                for (int tx = 0; tx < txs; tx += 10) {
                    up.setLong(1, (long) tx * size + 1);
                    up.addBatch();
                }
                up.executeBatch();
                c.commit();
            }
            double cleanRate = 0;
            double conflictRate = 0;
            for (int k = 0; k < 2; k++) {
                boolean conflicts = (k == 0) == conflictingFirst;
                double seconds = ApplyNodes.drain(conflicts ? conflicting : clean, conflicts ? "n3" : "n2", source, handlers);
                if (conflicts) conflictRate = rows / seconds;
                else cleanRate = rows / seconds;
            }
            check(clean, rows, 0);
            check(conflicting, rows, (txs + 9) / 10);
            return new double[] {cleanRate, conflictRate};
        }
    }

    /** Every row applied once, the expected conflicts resolved, nothing queued. */
    private static void check(TestDatabase dest, int rows, int conflicts) throws Exception {
        long applied = count(dest, "SELECT count(*) FROM item WHERE n = 1");
        long recorded = count(dest, "SELECT count(*) FROM repl_conflict WHERE outcome = 'LCR_APPLIED'");
        long queued = count(dest, "SELECT count(*) FROM repl_error");
        if (applied != rows || recorded != conflicts || queued != 0) {
            throw new IllegalStateException(dest + ": " + applied + " of " + rows + " rows applied, " + recorded + " of "
                    + conflicts + " conflicts resolved, " + queued + " queued");
        }
    }

    private static long count(TestDatabase db, String sql) throws Exception {
        try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(db.driverTables(sql))) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
