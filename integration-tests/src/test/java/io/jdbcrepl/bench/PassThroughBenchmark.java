package io.jdbcrepl.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * Pass-through overhead of the driver with replication off (issue 2's figure): the same workload
 * through raw pgjdbc and through {@code jdbc:repl:postgresql:} without {@code repl.node}, both
 * behind HikariCP pools of the same size, on the same database in the same run, interleaved.
 *
 * <p>Workloads: a prepared single-row SELECT by primary key, and a single-row UPDATE by primary
 * key in autocommit (durable: synchronous_commit as the server has it). Each operation borrows a
 * connection, prepares, executes and closes, as an application behind a pool does.
 *
 * <p>Creates the database {@code repl_bench_<random>} and drops it at the end. Server from the
 * integration tests' variables REPL_IT_PG_HOST, _PORT, _USER, _PASSWORD (defaults 127.0.0.1,
 * 5432, postgres, none). Settings, as
 * system properties: bench.threads (4,8), bench.rounds (10), bench.seconds (3 per variant per
 * round), bench.warmup (10 s per variant), bench.rows (10000), bench.pool (8), bench.workloads
 * (select,update), bench.calibrate (false: true compares raw pgjdbc with itself, two pools, to
 * show the noise floor). Run it as docs/benchmarks.md says.
 */
public final class PassThroughBenchmark {

    static final double TARGET_RATIO = 0.97;

    private static final String SELECT = "SELECT id, name, qty FROM bench_item WHERE id = ?";
    private static final String UPDATE = "UPDATE bench_item SET qty = qty + 1 WHERE id = ?";

    private final String host = env("REPL_IT_PG_HOST", "127.0.0.1");
    private final String port = env("REPL_IT_PG_PORT", "5432");
    private final String user = env("REPL_IT_PG_USER", "postgres");
    private final String password = env("REPL_IT_PG_PASSWORD", "");
    private final int rows = Integer.getInteger("bench.rows", 10_000);
    private final int poolSize = Integer.getInteger("bench.pool", 8);
    private final boolean calibrate = flag("bench.calibrate");
    private final String database = "repl_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final PrintStream out = System.out;

    public static void main(String[] args) throws Exception {
        new PassThroughBenchmark().run();
    }

    void run() throws Exception {
        List<Integer> threadCounts = new ArrayList<>();
        for (String t : System.getProperty("bench.threads", "4,8").split(",")) {
            threadCounts.add(Integer.parseInt(t.trim()));
        }
        String named = System.getProperty("bench.workloads", "");
        List<String> workloads = List.of((named.isBlank() ? "select,update" : named).split(","));
        int rounds = Integer.getInteger("bench.rounds", 10);
        Duration round = Duration.ofSeconds(Integer.getInteger("bench.seconds", 3));
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmup", 10));

        createDatabase();
        Thread dropOnExit = new Thread(this::dropDatabaseQuietly, "drop-" + database);
        Runtime.getRuntime().addShutdownHook(dropOnExit); // also after Ctrl-C
        List<Harness.Result> results = new ArrayList<>();
        try (HikariDataSource raw = pool("pgjdbc", rawUrl());
             HikariDataSource other = pool(calibrate ? "pgjdbc-2" : "jdbc-repl",
                     calibrate ? rawUrl() : "jdbc:repl:" + rawUrl().substring("jdbc:".length()))) {
            String baseline = "pgjdbc";
            String candidate = calibrate ? "pgjdbc (2nd)" : "jdbc:repl";
            printEnvironment(raw, other);
            for (String workload : workloads) {
                for (int threads : threadCounts) {
                    Harness.Settings settings = new Harness.Settings(threads, warmup, round, rounds);
                    List<Harness.Variant> variants = List.of(
                            new Harness.Variant(baseline, operation(workload.trim(), raw)),
                            new Harness.Variant(candidate, operation(workload.trim(), other)));
                    Harness.Result result = Harness.run(workload.trim(), settings, variants, out);
                    Harness.print(result, out);
                    results.add(result);
                }
            }
        } finally {
            dropDatabaseQuietly();
            Runtime.getRuntime().removeShutdownHook(dropOnExit);
        }
        printSummary(results);
    }

    private Harness.Operation operation(String workload, DataSource pool) {
        return switch (workload) {
            case "select" -> () -> selectOne(pool);
            case "update" -> () -> updateOne(pool);
            default -> throw new IllegalArgumentException("unknown workload '" + workload + "': select or update");
        };
    }

    private void selectOne(DataSource pool) throws SQLException {
        int id = ThreadLocalRandom.current().nextInt(1, rows + 1);
        try (Connection connection = pool.getConnection();
             PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setInt(1, id);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != id || rs.getString(2) == null) {
                    throw new IllegalStateException("row " + id + " not found");
                }
            }
        }
    }

    private void updateOne(DataSource pool) throws SQLException {
        int id = ThreadLocalRandom.current().nextInt(1, rows + 1);
        try (Connection connection = pool.getConnection();
             PreparedStatement update = connection.prepareStatement(UPDATE)) {
            update.setInt(1, id);
            if (update.executeUpdate() != 1) {
                throw new IllegalStateException("row " + id + " not updated");
            }
        }
    }

    private HikariDataSource pool(String name, String url) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setAutoCommit(true);
        return new HikariDataSource(config);
    }

    private String rawUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    private Connection admin() throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", credentials);
    }

    private void createDatabase() throws SQLException {
        try (Connection admin = admin(); Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        }
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        try (Connection connection = DriverManager.getConnection(rawUrl(), credentials);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE bench_item (id integer PRIMARY KEY, name varchar(40) NOT NULL, qty integer NOT NULL)");
            statement.execute("INSERT INTO bench_item SELECT g, 'item ' || g, 0 FROM generate_series(1, " + rows + ") g");
            statement.execute("VACUUM ANALYZE bench_item");
        }
    }

    private synchronized void dropDatabaseQuietly() {
        try (Connection admin = admin(); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("could not drop database " + database + ": " + e.getMessage());
        }
    }

    private void printEnvironment(DataSource raw, DataSource other) throws SQLException {
        out.println("PassThroughBenchmark " + ZonedDateTime.now().withNano(0));
        out.printf(Locale.ROOT, "java %s (%s), %d processors%n", Runtime.version(),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
        try (Connection connection = raw.getConnection(); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT version(), current_setting('synchronous_commit'), current_setting('fsync')")) {
            rs.next();
            out.println(rs.getString(1));
            out.println("synchronous_commit=" + rs.getString(2) + ", fsync=" + rs.getString(3));
            out.println("pgjdbc " + connection.getMetaData().getDriverVersion());
        }
        try (Connection connection = other.getConnection()) {
            out.println("compared pool's connection class: " + connection.unwrap(Connection.class).getClass().getName());
        }
        out.printf(Locale.ROOT, "database %s, %d rows, pool size %d for both%n", database, rows, poolSize);
    }

    private void printSummary(List<Harness.Result> results) {
        if (results.isEmpty()) {
            return;
        }
        List<String> names = results.get(0).variants();
        out.printf(Locale.ROOT, "%nSummary: %s / %s (target: ratio of medians >= %.2f)%n",
                names.get(1), names.get(0), TARGET_RATIO);
        out.printf(Locale.ROOT, "%-8s %7s %13s %13s %9s %21s %21s %10s %9s%n", "workload", "threads",
                "median ops/s", "median ops/s", "ratio of", "round ratios", "mixed ratios", "cpu/op", "alloc");
        out.printf(Locale.ROOT, "%-8s %7s %13s %13s %9s %21s %21s %10s %9s%n", "", "",
                names.get(0), names.get(1), "medians", "median (min-max)", "median (min-max)", "delta", "delta");
        for (Harness.Result r : results) {
            double ratio = r.ratioOfMedians(1);
            out.printf(Locale.ROOT, "%-8s %7d %13.0f %13.0f %9.3f %21s %21s %+7.1f us %+5.0f B/op  %s%n",
                    r.workload(), r.settings().threads(), r.median(0), r.median(1), ratio,
                    spread(r.roundRatios(1)), spread(r.mixedRatios(1)), r.medianCpu(1) - r.medianCpu(0),
                    r.medianBytes(1) - r.medianBytes(0), ratio >= TARGET_RATIO ? "ok" : "BELOW TARGET");
        }
    }

    private static String spread(double[] values) {
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", Harness.median(values), Harness.min(values),
                Harness.max(values));
    }

    /** true or false, nothing else: a misspelt "ture" must not quietly mean false. */
    private static boolean flag(String name) {
        String value = System.getProperty(name, "false").trim();
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
        }
        return value.equals("true");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
