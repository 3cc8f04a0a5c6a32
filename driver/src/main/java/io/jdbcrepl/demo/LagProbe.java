package io.jdbcrepl.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Replication lag as an application sees it: every node bumps its own row of
 * {@code demo_heartbeat} every {@link #BEAT_MILLIS} ms through its {@code jdbc:repl:} connection,
 * and a watcher reads every node's copy of the rows every {@link #LOOK_MILLIS} ms; the lag of a
 * beat is the time from its commit until the watcher sees it on a peer.
 */
final class LagProbe {

    private static final long BEAT_MILLIS = 100;
    private static final long LOOK_MILLIS = 2;

    private final DemoCluster cluster;
    /** Commit time (nanoTime) of beat {@code seq} of node i, by {@code i + ":" + seq}. */
    private final ConcurrentHashMap<String, Long> committedAt = new ConcurrentHashMap<>();
    private final List<Long> lagsNanos = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;
    private volatile String failure;

    LagProbe(DemoCluster cluster) {
        this.cluster = cluster;
    }

    void start() throws SQLException {
        int n = cluster.size();
        Connection[] beat = new Connection[n];
        Connection[] look = new Connection[n];
        for (int i = 0; i < n; i++) {
            beat[i] = cluster.open(i);
            look[i] = cluster.openRaw(i);
        }
        threads.add(daemon(() -> beat(beat), "demo-heartbeat"));
        threads.add(daemon(() -> look(look), "demo-lag-watcher"));
        threads.forEach(Thread::start);
    }

    void stop() throws InterruptedException {
        stopping = true;
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(10));
    }

    /** Lag percentiles in milliseconds: p50, p99, max; empty when no beat arrived. */
    synchronized double[] percentiles() {
        if (lagsNanos.isEmpty()) return new double[0];
        long[] sorted = lagsNanos.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return new double[] {at(sorted, 0.50), at(sorted, 0.99), sorted[sorted.length - 1] / 1e6};
    }

    synchronized int samples() {
        return lagsNanos.size();
    }

    /** The median so far, for the progress line; NaN before the first sample. */
    synchronized double median() {
        if (lagsNanos.isEmpty()) return Double.NaN;
        long[] sorted = lagsNanos.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return at(sorted, 0.50);
    }

    String failure() {
        return failure;
    }

    private static double at(long[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
    }

    private void beat(Connection[] connections) {
        long seq = 0;
        try {
            List<PreparedStatement> updates = new ArrayList<>();
            for (int i = 0; i < connections.length; i++) {
                updates.add(connections[i].prepareStatement("UPDATE demo_heartbeat SET seq = ? WHERE node = ?"));
            }
            while (!stopping) {
                seq++;
                for (int i = 0; i < connections.length; i++) {
                    PreparedStatement ps = updates.get(i);
                    ps.setLong(1, seq);
                    ps.setString(2, cluster.node(i).name());
                    ps.executeUpdate(); // auto-commit: committed when it returns
                    committedAt.put(i + ":" + seq, System.nanoTime());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(BEAT_MILLIS));
            }
        } catch (SQLException e) {
            failure = "heartbeat: " + e.getMessage();
        } finally {
            closeAll(connections);
        }
    }

    private void look(Connection[] connections) {
        int n = connections.length;
        long[][] seen = new long[n][n]; // seen[peer][source]: the last beat of source seen at peer
        try {
            List<PreparedStatement> reads = new ArrayList<>();
            for (Connection c : connections) reads.add(c.prepareStatement("SELECT node, seq FROM demo_heartbeat"));
            while (!stopping) {
                for (int peer = 0; peer < n; peer++) {
                    try (ResultSet rs = reads.get(peer).executeQuery()) {
                        while (rs.next()) {
                            int source = indexOf(rs.getString(1));
                            if (source < 0 || source == peer) continue;
                            long seq = rs.getLong(2);
                            long now = System.nanoTime();
                            for (long s = seen[peer][source] + 1; s <= seq; s++) {
                                Long at = committedAt.get(source + ":" + s);
                                if (at != null) record(now - at);
                            }
                            seen[peer][source] = Math.max(seen[peer][source], seq);
                        }
                    }
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LOOK_MILLIS));
            }
        } catch (SQLException e) {
            failure = "lag watcher: " + e.getMessage();
        } finally {
            closeAll(connections);
        }
    }

    private synchronized void record(long nanos) {
        lagsNanos.add(Math.max(0, nanos));
    }

    private int indexOf(String node) {
        for (int i = 0; i < cluster.size(); i++) if (cluster.node(i).name().equals(node)) return i;
        return -1;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeAll(Connection[] connections) {
        for (Connection c : connections) {
            try {
                if (c != null) c.close();
            } catch (SQLException ignored) {
                // the probe is done
            }
        }
    }
}
