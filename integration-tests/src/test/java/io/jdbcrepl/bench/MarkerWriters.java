package io.jdbcrepl.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code rate} transactions/s through the driver at one node, on a fixed schedule shared by two
 * threads (one alone falls behind when the machine is busy): each transaction changes a random
 * row of {@code account}, then the {@code marker} row with its send time in microseconds, strictly
 * increasing (two writers catching up may read the same microsecond). A peer that holds a marker
 * sent a moment ago has applied everything before it: the benchmarks' measure of lag.
 */
final class MarkerWriters {

    /** Binds the account statement's parameters for the row {@code id}. */
    interface AccountChange {
        void bind(PreparedStatement ps, long id) throws SQLException;
    }

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicLong next = new AtomicLong();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong lastSent = new AtomicLong();
    private final long start = System.nanoTime();
    private final List<Thread> threads = new ArrayList<>();

    /** Starts writing to {@code url}: {@code accountSql} bound by {@code change} for a row of 1..{@code rows}. */
    MarkerWriters(String url, Properties credentials, int rate, int rows, String accountSql, AccountChange change,
            PrintStream out) {
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(() -> write(url, credentials, rate, rows, accountSql, change, out), "marker-writer-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    long transactions() {
        return transactions.get();
    }

    double rate() {
        return transactions.get() / ((System.nanoTime() - start) / 1e9);
    }

    void stop() throws InterruptedException {
        stopped.set(true);
        for (Thread t : threads) t.join();
    }

    static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    private void write(String url, Properties credentials, int rate, int rows, String accountSql, AccountChange change,
            PrintStream out) {
        long period = 1_000_000_000L / rate;
        try (Connection c = DriverManager.getConnection(url, credentials);
                PreparedStatement account = c.prepareStatement(accountSql);
                PreparedStatement marker = c.prepareStatement("UPDATE marker SET sent_us = ? WHERE id = 1")) {
            c.setAutoCommit(false);
            while (!stopped.get()) {
                long wait = start + next.getAndIncrement() * period - System.nanoTime();
                if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                try {
                    change.bind(account, 1 + ThreadLocalRandom.current().nextInt(rows));
                    account.executeUpdate();
                    // the marker's row last: each transaction's send time is newer than the one before
                    marker.setLong(1, lastSent.accumulateAndGet(nowMicros(), (a, b) -> Math.max(a + 1, b)));
                    marker.executeUpdate();
                    c.commit();
                    transactions.incrementAndGet();
                } catch (SQLException e) { // a deadlock on the marker row, or a lock wait a DDL ran out: again
                    c.rollback();
                }
            }
        } catch (Exception e) {
            e.printStackTrace(out);
        }
    }
}
