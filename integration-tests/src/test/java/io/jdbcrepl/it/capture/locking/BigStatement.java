package io.jdbcrepl.it.capture.locking;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Runs statements through one connection, each in a transaction of its own, in a JVM of its own
 * (see {@link BigStatementCaptureIT}); prints each update count and the peak heap in use.
 * Arguments: URL, user, password, then the statements.
 */
public final class BigStatement {

    private BigStatement() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (int i = 3; i < args.length; i++) {
                long started = System.nanoTime();
                long count = s.executeLargeUpdate(args[i]);
                c.commit();
                System.out.printf("count %d in %d ms%n", count, (System.nanoTime() - started) / 1_000_000);
            }
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
        }
        System.out.printf("peak heap %d MB of %d MB%n", peak >> 20, Runtime.getRuntime().maxMemory() >> 20);
    }
}
