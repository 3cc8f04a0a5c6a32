package io.jdbcrepl.bench;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.metrics.ReplMeterBinder;
import io.jdbcrepl.metrics.ReplMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What metrics cost (issue 22): capture and apply with metrics counting and a Prometheus registry
 * scraped every {@code bench.scrape} seconds (15, a common Prometheus interval; each scrape reads
 * the status gauges, a query on the local database and on each peer), against the same with counting off ({@link ReplMetrics#counting(boolean)}),
 * in one run, interleaved. Capture: a single-row UPDATE in autocommit on a replicated table, the
 * cheapest captured transaction (so the largest share for the metrics), HikariCP pools of
 * {@code bench.pool}, with the raw driver as a third variant for scale. Apply: a backlog of
 * {@code bench.rows} rows in transactions of 10 drained into a fresh database,
 * {@code bench.rounds} times each way, alternating. {@code bench.vendor}: POSTGRESQL (default) or MARIADB.
 */
public final class MetricsBenchmark {

    private static final int ROWS = 10_000;

    private MetricsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Vendor vendor = Vendor.valueOf(System.getProperty("bench.vendor", "POSTGRESQL"));
        int threads = Integer.getInteger("bench.threads", 8);
        int rounds = Integer.getInteger("bench.rounds", 5);
        System.out.printf(Locale.ROOT, "Prometheus scrape every %d s while metrics are on%n", Long.getLong("bench.scrape", 15));
        long scrapeMillis = Long.getLong("bench.scrape", 15) * 1000;
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ReplMeterBinder().bindTo(prometheus);
        Thread scraper = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(scrapeMillis);
                    if (ReplMetrics.counting()) prometheus.scrape(); // a Prometheus server's scrape, status gauges included
                }
            } catch (InterruptedException end) {
                // the run is over
            }
        }, "bench-scraper");
        scraper.setDaemon(true);
        scraper.start();
        try {
            capture(vendor, threads, rounds);
            apply(vendor, rounds);
        } finally {
            scraper.interrupt();
            ReplMetrics.counting(true);
        }
    }

    private static void capture(Vendor vendor, int threads, int rounds) throws Exception {
        try (TestDatabase db = TestDatabase.create(vendor, "bench_metrics")) {
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
                StringBuilder insert = new StringBuilder("INSERT INTO account VALUES ");
                for (int i = 1; i <= ROWS; i++) insert.append(i == 1 ? "" : ",").append("(").append(i).append(", 0)");
                s.execute(insert.toString());
            }
            int pool = Integer.getInteger("bench.pool", threads);
            try (HikariDataSource raw = pool(db, db.replUrl().replaceFirst("^jdbc:repl:", "jdbc:"), pool, Map.of());
                    HikariDataSource repl = pool(db, db.replUrl(), pool, Map.of("repl.node", "m1"))) {
                Harness.Settings settings = new Harness.Settings(threads,
                        Duration.ofSeconds(Integer.getInteger("bench.warmup", 5)),
                        Duration.ofSeconds(Integer.getInteger("bench.seconds", 5)), rounds);
                List<Harness.Variant> variants = List.of(
                        new Harness.Variant("metrics off", update(repl, false)),
                        new Harness.Variant("metrics on", update(repl, true)),
                        new Harness.Variant("raw driver", update(raw, false)));
                Harness.Result r = Harness.run("update", settings, variants, System.out);
                Harness.print(r, System.out);
                System.out.printf(Locale.ROOT, "%n%s capture, metrics on / off: ratio of medians %.3f (rounds %.3f..%.3f);"
                        + " capture / raw driver %.3f%n", vendor, r.ratioOfMedians(1), Harness.min(r.roundRatios(1)),
                        Harness.max(r.roundRatios(1)), r.median(0) / r.median(2));
            }
        }
    }

    /** One single-row UPDATE in autocommit; counting set as the variant wants before it (a change only at a variant's start). */
    private static Harness.Operation update(HikariDataSource pool, boolean counting) {
        return () -> {
            if (ReplMetrics.counting() != counting) ReplMetrics.counting(counting);
            try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE account SET balance = balance + 1 WHERE id = ?")) {
                ps.setInt(1, ThreadLocalRandom.current().nextInt(1, ROWS + 1));
                ps.executeUpdate();
            }
        };
    }

    private static HikariDataSource pool(TestDatabase db, String url, int size, Map<String, String> repl) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setDataSourceProperties(db.credentials());
        repl.forEach(config::addDataSourceProperty);
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }

    private static void apply(Vendor vendor, int rounds) throws Exception {
        int rows = Integer.getInteger("bench.rows", 50_000);
        List<Double> on = new ArrayList<>();
        List<Double> off = new ArrayList<>();
        try (TestDatabase source = TestDatabase.create(vendor, "bench_metrics_src")) {
            String ddl = "CREATE TABLE item (id BIGINT PRIMARY KEY, name VARCHAR(100), amount DECIMAL(12,2), n INTEGER NOT NULL)";
            try (Connection c = source.openRaw(); Statement s = c.createStatement()) {
                s.execute(ddl);
            }
            try (Connection c = java.sql.DriverManager.getConnection(source.replUrl(Map.of("repl.node", "n1")), source.credentials());
                    PreparedStatement ins = c.prepareStatement("INSERT INTO item (id, name, amount, n) VALUES (?, ?, ?, 0)")) {
                ApplyNodes.writeItems(c, ins, rows, 10);
            }
            int warmups = Integer.getInteger("bench.warmupDrains", 3);
            for (int round = -warmups; round < 2 * rounds; round++) {
                // the warm-up drains are not counted (a run's first drains ramp up); then on, off, off, on, ...
                boolean counting = round < 0 || round % 4 == 0 || round % 4 == 3;
                ReplMetrics.counting(counting);
                try (TestDatabase dest = TestDatabase.create(vendor, "bench_metrics_dst")) {
                    try (Connection c = dest.openRaw(); Statement s = c.createStatement()) {
                        s.execute(ddl);
                    }
                    double seconds = ApplyNodes.drain(dest, "n2", source, Map.of());
                    if (round < 0) {
                        System.out.printf(Locale.ROOT, "  apply warm-up: %.0f rows/s%n", rows / seconds);
                        continue;
                    }
                    (counting ? on : off).add(rows / seconds);
                    System.out.printf(Locale.ROOT, "  apply round %d, metrics %s: %.0f rows/s%n", round + 1,
                            counting ? "on" : "off", rows / seconds);
                }
            }
        } finally {
            ReplMetrics.counting(true);
        }
        double[] a = on.stream().mapToDouble(Double::doubleValue).toArray();
        double[] b = off.stream().mapToDouble(Double::doubleValue).toArray();
        System.out.printf(Locale.ROOT, "%n%s apply of %d rows, metrics on / off: median %.0f vs %.0f rows/s, ratio %.3f"
                + " (on %.0f..%.0f, off %.0f..%.0f)%n", vendor, rows, Harness.median(a), Harness.median(b),
                Harness.median(a) / Harness.median(b), Harness.min(a), Harness.max(a), Harness.min(b), Harness.max(b));
    }
}
