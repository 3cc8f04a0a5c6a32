package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * End-to-end lag (issue 4, figure 1) on two nodes of one server (PostgreSQL, or MariaDB with
 * {@code -Dbench.server=mariadb}), each node its own database: a fixed offered load of single-row
 * UPDATE transactions at node a ({@code bench.lag.rate}, 500/s) for {@code bench.lag.seconds}
 * (60) after {@code bench.lag.warmup} (10) seconds not counted; an observer at node b reads, every
 * millisecond, the send times (client clock just before the statement) that became visible there.
 * Prints p50/p90/p99/max per window of {@code bench.lag.window} seconds (growth would show there)
 * and overall. Apply throughput is {@link ApplyBenchmark}.
 */
public final class ApplyLagBenchmark {

    private final String server = System.getProperty("bench.server", "postgresql").toLowerCase(Locale.ROOT);
    private final boolean pg = server.equals("postgresql");
    private final String host = System.getProperty("bench.host", "127.0.0.1");
    private final String port = System.getProperty("bench.port", pg ? "5432" : "3306");
    private final String user = System.getProperty("bench.user", pg ? "postgres" : "root");
    private final String password = System.getProperty("bench.password", "");
    // New names per workload: the driver keeps a node's state per URL for the JVM's life.
    private String dbA;
    private String dbB;
    private final PrintStream out = System.out;

    public static void main(String[] args) throws Exception {
        new ApplyLagBenchmark().run();
    }

    void run() throws Exception {
        // The bench profile passes an empty bench.workloads: lag is the only one.
        String workloads = System.getProperty("bench.workloads", "").isBlank() ? "lag" : System.getProperty("bench.workloads");
        out.println("ApplyLagBenchmark " + ZonedDateTime.now().withNano(0) + ", " + server + ", java " + Runtime.version()
                + ", " + Runtime.getRuntime().availableProcessors() + " processors");
        try {
            for (String w : workloads.split(",")) {
                String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
                dbA = "repl_bench_a_" + suffix;
                dbB = "repl_bench_b_" + suffix;
                createDatabases();
                try {
                    if (!w.trim().equals("lag")) throw new IllegalArgumentException("unknown workload " + w);
                    lag();
                } finally {
                    Repl.shutdown();
                    dropDatabases();
                }
            }
        } finally {
            Repl.shutdown();
        }
    }

    // ---- lag at a fixed offered load

    private void lag() throws Exception {
        int rate = Integer.getInteger("bench.lag.rate", 500);
        int seconds = Integer.getInteger("bench.lag.seconds", 60);
        int window = Integer.getInteger("bench.lag.window", 10);
        int warmup = Integer.getInteger("bench.lag.warmup", 10);
        int rows = 10_000;
        for (String db : List.of(dbA, dbB)) {
            exec(db, "CREATE TABLE lag_item (id int PRIMARY KEY, n bigint NOT NULL, sent_us bigint NOT NULL)",
                    "CREATE INDEX lag_item_sent ON lag_item (sent_us)",
                    "INSERT INTO lag_item SELECT * FROM (" + series(rows, "0 AS n, 0 AS sent_us") + ") s");
        }
        try (Connection a0 = connect(replUrl(dbA, "a", null)); // installs a's change log
             Connection b = connect(replUrl(dbB, "b", "a"))) { // starts b's inbound server
            b.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(60));
            List<long[]> samples = Collections.synchronizedList(new ArrayList<>()); // {observed at us, lag us}
            AtomicBoolean stop = new AtomicBoolean();
            Thread observer = new Thread(() -> observe(samples, stop), "lag-observer");
            observer.start();
            int writers = 4;
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            AtomicLong next = new AtomicLong();
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            long total = (long) rate * (seconds + warmup);
            long periodNanos = 1_000_000_000L / rate;
            AtomicLong late = new AtomicLong();
            List<java.util.concurrent.Future<Object>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                futures.add(pool.submit(() -> {
                    try (Connection a = connect(replUrl(dbA, "a", null));
                         PreparedStatement ps = a.prepareStatement("UPDATE lag_item SET n = n + 1, sent_us = ? WHERE id = ?")) {
                        long i;
                        while ((i = next.getAndIncrement()) < total) {
                            long due = start + i * periodNanos;
                            long wait = due - System.nanoTime();
                            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                            else if (wait < -TimeUnit.MILLISECONDS.toNanos(10)) late.incrementAndGet();
                            ps.setLong(1, nowMicros());
                            ps.setInt(2, ThreadLocalRandom.current().nextInt(rows));
                            ps.executeUpdate();
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            pool.awaitTermination(seconds + 120L, TimeUnit.SECONDS);
            for (var f : futures) f.get();
            b.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(120));
            Thread.sleep(50);
            stop.set(true);
            observer.join();
            out.printf(Locale.ROOT, "lag: offered %d update transactions/s for %d s after %d s of warm-up through 4 writers at a"
                    + " (%d started more than 10 ms late), %d observed at b%n", rate, seconds, warmup, late.get(), samples.size());
            List<long[]> all = new ArrayList<>(samples);
            all.sort((x, y) -> Long.compare(x[0], y[0]));
            // The first seconds warm up the JIT, the pools and the applier: not counted.
            long first = all.isEmpty() ? 0 : all.get(0)[0] + warmup * 1_000_000L;
            all.removeIf(x -> x[0] < first);
            out.println("window      observed    p50 ms    p90 ms    p99 ms    max ms");
            for (long w0 = 0; ; w0 += window) {
                List<Long> lags = new ArrayList<>();
                for (long[] s : all) {
                    long t = (s[0] - first) / 1_000_000;
                    if (t >= w0 && t < w0 + window) lags.add(s[1]);
                }
                if (lags.isEmpty()) break;
                printPercentiles(String.format(Locale.ROOT, "%3d-%3d s", w0, w0 + window), lags);
            }
            List<Long> lags = new ArrayList<>();
            for (long[] s : all) lags.add(s[1]);
            printPercentiles("all      ", lags);
        }
    }

    /** Reads the send times that became visible at b since the last poll, every millisecond. */
    private void observe(List<long[]> samples, AtomicBoolean stop) {
        try (Connection b = connect(rawUrl(dbB));
             PreparedStatement ps = b.prepareStatement("SELECT sent_us FROM lag_item WHERE sent_us > ? ORDER BY sent_us")) {
            long last = 0;
            while (!stop.get()) {
                ps.setLong(1, last);
                try (ResultSet rs = ps.executeQuery()) {
                    long now = nowMicros();
                    while (rs.next()) {
                        long sent = rs.getLong(1);
                        samples.add(new long[] {now, now - sent});
                        last = Math.max(last, sent);
                    }
                }
                Thread.sleep(1);
            }
        } catch (Exception e) {
            e.printStackTrace(out);
        }
    }

    private void printPercentiles(String label, List<Long> lagsMicros) {
        List<Long> sorted = new ArrayList<>(lagsMicros);
        Collections.sort(sorted);
        out.printf(Locale.ROOT, "%s %10d %9.1f %9.1f %9.1f %9.1f%n", label, sorted.size(), pct(sorted, 50), pct(sorted, 90),
                pct(sorted, 99), sorted.get(sorted.size() - 1) / 1000.0);
    }

    private static double pct(List<Long> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i))) / 1000.0;
    }

    // ---- databases

    private String series(int rows, String columns) {
        // Each server's way to generate rows 0..rows-1.
        if (pg) return "SELECT g AS id, " + columns + " FROM generate_series(0, " + (rows - 1) + ") g";
        return "SELECT seq AS id, " + columns + " FROM seq_0_to_" + (rows - 1);
    }

    private String rawUrl(String db) {
        return "jdbc:" + server + "://" + host + ":" + port + "/" + db;
    }

    private String replUrl(String db, String node, String peer) {
        StringBuilder url = new StringBuilder("jdbc:repl:" + server + "://" + host + ":" + port + "/" + db
                + "?repl.node=" + node);
        if (peer == null) {
            url.append("&repl.apply=false");
        } else {
            String other = peer.equals("a") ? dbA : dbB;
            url.append("&repl.peers=").append(peer).append("&repl.peer.").append(peer).append(".url=")
                    .append(java.net.URLEncoder.encode(rawUrl(other), java.nio.charset.StandardCharsets.UTF_8))
                    .append("&repl.peer.").append(peer).append(".user=").append(user);
            if (!password.isEmpty()) url.append("&repl.peer.").append(peer).append(".password=").append(password);
        }
        return url.toString();
    }

    private Connection connect(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return DriverManager.getConnection(url, p);
    }

    private void exec(String db, String... sql) throws SQLException {
        try (Connection c = connect(rawUrl(db)); Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    private void createDatabases() throws SQLException {
        try (Connection c = connect(rawUrl(pg ? "postgres" : "")); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + dbA);
            s.execute("CREATE DATABASE " + dbB);
        }
    }

    private void dropDatabases() {
        try (Connection c = connect(rawUrl(pg ? "postgres" : "")); Statement s = c.createStatement()) {
            for (String db : List.of(dbA, dbB)) s.execute("DROP DATABASE IF EXISTS " + db + (pg ? " WITH (FORCE)" : ""));
        } catch (SQLException e) {
            System.err.println("could not drop the benchmark's databases: " + e.getMessage());
        }
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
