package io.jdbcrepl.bench;

import io.jdbcrepl.it.support.DriverTables;
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
 * Capture overhead (issue 3's figure): the same transactions on replicated tables through the raw
 * driver and through {@code jdbc:repl:…} with {@code repl.node} (every changed row logged in
 * {@code repl_log}), HikariCP pools of the same size, same database, same run, interleaved rounds,
 * durable commits. This class runs it on PostgreSQL; {@link MariaDbCaptureBenchmark} on MariaDB,
 * through the same code with another {@link Server}.
 *
 * <p>Workloads: {@code update}, a single-row UPDATE transaction (autocommit); {@code tpcb}, a
 * TPC-B-like transaction: three updates (account, teller, branch), one select, one insert.
 * Settings as system properties: bench.threads (8), bench.rounds (5), bench.seconds (5),
 * bench.warmup (5), bench.workloads (update,tpcb), bench.pool (8). PGHOST/PGPORT/PGUSER/PGPASSWORD.
 */
public final class CaptureBenchmark {

    static final int ACCOUNTS = 100_000;
    static final int TELLERS = 100;
    static final int BRANCHES = 10;

    /** What differs between the databases the benchmark runs on. */
    abstract static class Server {
        /** The raw driver's name, as printed. */
        final String driverName;
        final double targetRatio;
        private final String urlPrefix;
        final String user;
        final String password;

        /** @param urlPrefix the raw driver's URL without the database name */
        Server(String driverName, double targetRatio, String urlPrefix, String user, String password) {
            this.driverName = driverName;
            this.targetRatio = targetRatio;
            this.urlPrefix = urlPrefix;
            this.user = user;
            this.password = password;
        }

        /** The raw driver's URL of a database; the capturing one is {@code jdbc:repl:} + the rest. */
        final String url(String database) {
            return urlPrefix + database;
        }

        /** Creates the database and the benchmark's tables, filled. */
        abstract void create(String database) throws SQLException;

        abstract void drop(String database) throws SQLException;

        /** Prints the change log's size per LCR and what the server says about durability. */
        abstract void printLogFigures(Connection c, PrintStream out) throws SQLException;

        /**
         * SQL that reads how many statements this session has sent (itself included), to count the
         * round trips of one operation; null where the server does not tell.
         */
        String sessionStatementCount() {
            return null;
        }
    }

    private final Server server;
    private final int poolSize = Integer.getInteger("bench.pool", 8);
    private final String database = "repl_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final PrintStream out = System.out;

    CaptureBenchmark(Server server) {
        this.server = server;
    }

    public static void main(String[] args) throws Exception {
        new CaptureBenchmark(new Postgres()).run();
    }

    void run() throws Exception {
        int threads = Integer.getInteger("bench.threads", 8);
        int rounds = Integer.getInteger("bench.rounds", 5);
        Duration round = Duration.ofSeconds(Integer.getInteger("bench.seconds", 5));
        Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.warmup", 5));
        String named = System.getProperty("bench.workloads", "");
        List<String> workloads = List.of((named.isBlank() ? "update,tpcb" : named).split(","));
        server.create(database);
        Thread dropOnExit = new Thread(this::dropDatabaseQuietly, "drop-" + database);
        Runtime.getRuntime().addShutdownHook(dropOnExit);
        List<Harness.Result> results = new ArrayList<>();
        boolean signed = Boolean.getBoolean("bench.signed");
        try (HikariDataSource raw = pool(server.driverName, rawUrl(), false);
             HikariDataSource repl = pool("jdbc-repl", "jdbc:repl:" + rawUrl().substring("jdbc:".length()), true);
             HikariDataSource keyed = signed ? pool("jdbc-repl-signed", "jdbc:repl:" + rawUrl().substring("jdbc:".length()),
                     true, "bench-shared-secret-0123456789") : null) {
            out.println("CaptureBenchmark " + ZonedDateTime.now().withNano(0) + ", java " + Runtime.version()
                    + ", " + Runtime.getRuntime().availableProcessors() + " processors, pool " + poolSize
                    + ", database " + database);
            for (String workload : workloads) {
                Harness.Settings settings = new Harness.Settings(threads, warmup, round, rounds);
                List<Harness.Variant> variants = new ArrayList<>(List.of(
                        new Harness.Variant(server.driverName, operation(workload.trim(), raw)),
                        new Harness.Variant("jdbc:repl capture", operation(workload.trim(), repl))));
                // bench.signed=true: also with repl.log.key (every LCR signed, SPEC 8.7)
                if (keyed != null) variants.add(new Harness.Variant("capture + repl.log.key", operation(workload.trim(), keyed)));
                Harness.Result result = Harness.run(workload.trim(), settings, variants, out);
                Harness.print(result, out);
                results.add(result);
            }
            try (Connection c = raw.getConnection()) {
                server.printLogFigures(c, out);
            }
            if (server.sessionStatementCount() != null) {
                for (String workload : workloads) {
                    out.printf(Locale.ROOT, "round trips per %s transaction: %s %d, jdbc:repl capture %d%n", workload.trim(),
                            server.driverName, roundTrips(workload.trim(), rawUrl(), false),
                            roundTrips(workload.trim(), "jdbc:repl:" + rawUrl().substring("jdbc:".length()), true));
                }
            }
        } finally {
            dropDatabaseQuietly();
            Runtime.getRuntime().removeShutdownHook(dropOnExit);
        }
        out.printf(Locale.ROOT, "%nSummary: jdbc:repl capture / %s (target: ratio of medians >= %.2f)%n",
                server.driverName, server.targetRatio);
        for (Harness.Result r : results) {
            out.printf(Locale.ROOT, "%-8s threads %d: median %.0f vs %.0f ops/s, ratio %.3f (rounds %.3f..%.3f)%n",
                    r.workload(), r.settings().threads(), r.median(1), r.median(0), r.ratioOfMedians(1),
                    Harness.min(r.roundRatios(1)), Harness.max(r.roundRatios(1)));
            if (signed) {
                out.printf(Locale.ROOT, "%-8s threads %d: with repl.log.key median %.0f ops/s, ratio %.3f to the raw driver"
                        + " (rounds %.3f..%.3f), %.3f of unsigned capture%n", r.workload(), r.settings().threads(),
                        r.median(2), r.ratioOfMedians(2), Harness.min(r.roundRatios(2)), Harness.max(r.roundRatios(2)),
                        r.median(2) / r.median(1));
            }
        }
    }

    /** Statements one operation sends, on a pool of one connection (warmed up first). */
    private long roundTrips(String workload, String url, boolean capture) throws Exception {
        try (HikariDataSource one = pool("count", url, capture)) {
            one.setMaximumPoolSize(1);
            Harness.Operation op = operation(workload, one);
            op.run();
            try (Connection c = one.getConnection()) {
                long before = statements(c);
                c.close();
                op.run();
                try (Connection d = one.getConnection()) {
                    return statements(d) - before - 1; // less the count's own statement
                }
            }
        }
    }

    private long statements(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(server.sessionStatementCount())) {
            rs.next();
            return rs.getLong(rs.getMetaData().getColumnCount());
        }
    }

    private Harness.Operation operation(String workload, DataSource pool) {
        return switch (workload) {
            case "update" -> () -> update(pool);
            case "tpcb" -> () -> tpcb(pool);
            default -> throw new IllegalArgumentException("unknown workload '" + workload + "': update or tpcb");
        };
    }

    private static void update(DataSource pool) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Connection c = pool.getConnection();
             PreparedStatement ps = c.prepareStatement("UPDATE bench_accounts SET abalance = abalance + ? WHERE aid = ?")) {
            ps.setInt(1, random.nextInt(-5000, 5000));
            ps.setInt(2, random.nextInt(1, ACCOUNTS + 1));
            if (ps.executeUpdate() != 1) throw new IllegalStateException("account not updated");
        }
    }

    /** pgbench's TPC-B-like transaction. */
    private static void tpcb(DataSource pool) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int aid = random.nextInt(1, ACCOUNTS + 1);
        int tid = random.nextInt(1, TELLERS + 1);
        int bid = random.nextInt(1, BRANCHES + 1);
        int delta = random.nextInt(-5000, 5000);
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement ps = c.prepareStatement("UPDATE bench_accounts SET abalance = abalance + ? WHERE aid = ?")) {
                    ps.setInt(1, delta);
                    ps.setInt(2, aid);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT abalance FROM bench_accounts WHERE aid = ?")) {
                    ps.setInt(1, aid);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("UPDATE bench_tellers SET tbalance = tbalance + ? WHERE tid = ?")) {
                    ps.setInt(1, delta);
                    ps.setInt(2, tid);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("UPDATE bench_branches SET bbalance = bbalance + ? WHERE bid = ?")) {
                    ps.setInt(1, delta);
                    ps.setInt(2, bid);
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO bench_history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
                    ps.setInt(1, tid);
                    ps.setInt(2, bid);
                    ps.setInt(3, aid);
                    ps.setInt(4, delta);
                    ps.executeUpdate();
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private HikariDataSource pool(String name, String url, boolean capture) {
        return pool(name, url, capture, null);
    }

    private HikariDataSource pool(String name, String url, boolean capture, String logKey) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(url);
        config.setUsername(server.user);
        config.setPassword(server.password);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        if (capture) config.addDataSourceProperty("repl.node", "bench");
        if (logKey != null) config.addDataSourceProperty("repl.log.key", logKey);
        return new HikariDataSource(config);
    }

    private String rawUrl() {
        return server.url(database);
    }

    private synchronized void dropDatabaseQuietly() {
        try {
            server.drop(database);
        } catch (SQLException e) {
            System.err.println("could not drop database " + database + ": " + e.getMessage());
        }
    }

    static Connection connect(Server server, String url) throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", server.user);
        credentials.setProperty("password", server.password);
        return DriverManager.getConnection(url, credentials);
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    /** PostgreSQL through pgjdbc; target 0.85. */
    static final class Postgres extends Server {
        Postgres() {
            super("pgjdbc", 0.85, "jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":" + env("PGPORT", "5432") + "/",
                    env("PGUSER", "postgres"), env("PGPASSWORD", ""));
        }

        @Override
        void create(String database) throws SQLException {
            try (Connection admin = connect(this, url("postgres")); Statement s = admin.createStatement()) {
                s.execute("CREATE DATABASE " + database);
            }
            try (Connection c = connect(this, url(database)); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE bench_branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88))");
                s.execute("CREATE TABLE bench_tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL, filler char(84))");
                s.execute("CREATE TABLE bench_accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84))");
                s.execute("CREATE TABLE bench_history (hid bigserial PRIMARY KEY, tid int, bid int, aid int, delta int,"
                        + " mtime timestamp, filler char(22))");
                s.execute("INSERT INTO bench_branches SELECT g, 0 FROM generate_series(1, " + BRANCHES + ") g");
                s.execute("INSERT INTO bench_tellers SELECT g, (g - 1) % " + BRANCHES + " + 1, 0 FROM generate_series(1, " + TELLERS + ") g");
                s.execute("INSERT INTO bench_accounts SELECT g, (g - 1) % " + BRANCHES + " + 1, 0 FROM generate_series(1, " + ACCOUNTS + ") g");
                s.execute("VACUUM ANALYZE");
            }
        }

        @Override
        void drop(String database) throws SQLException {
            try (Connection admin = connect(this, url("postgres")); Statement s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
        }

        @Override
        void printLogFigures(Connection c, PrintStream out) throws SQLException {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), avg(pg_column_size(l.*)), avg(octet_length(old_values::text)"
                         + " + octet_length(new_values::text) + octet_length(column_types::text)"
                         + " + coalesce(octet_length(change_vector::text), 0)) FROM " + DriverTables.table(c, "repl_log") + " l")) {
                rs.next();
                out.printf(Locale.ROOT, "repl_log: %d LCRs, %.0f bytes per LCR row (pg_column_size), %.0f bytes of JSON per LCR%n",
                        rs.getLong(1), rs.getDouble(2), rs.getDouble(3));
            }
            out.println("round trips per captured statement on PostgreSQL: 1 (the rewritten statement)");
        }
    }
}
