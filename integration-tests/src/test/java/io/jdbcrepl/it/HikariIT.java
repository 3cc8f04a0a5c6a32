package io.jdbcrepl.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * HikariCP in front of {@code jdbc:repl:}, as an application configures it: only the jdbcUrl
 * changes, and repl.* keys may come in {@code dataSourceProperties}.
 */
class HikariIT {

    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 120;
    private static final int COUNTERS = 4;

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void concurrentTransactionsThroughThePoolAreExact(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari");
        createTables(db);
        HikariConfig config = poolConfig(db, db.replUrl());
        config.addDataSourceProperty("repl.tables", "*.*");
        config.addDataSourceProperty("repl.unsupported", "error");

        int committed;
        try (HikariDataSource pool = new HikariDataSource(config)) {
            committed = runWorkload(pool);
            HikariPoolMXBean metrics = pool.getHikariPoolMXBean();
            assertThat(metrics.getActiveConnections()).as("active connections after the workload").isZero();
            assertThat(metrics.getThreadsAwaitingConnection()).as("threads waiting").isZero();
            assertThat(metrics.getTotalConnections()).as("total connections").isBetween(1, THREADS);
            assertThat(metrics.getIdleConnections()).as("idle connections").isEqualTo(metrics.getTotalConnections());
            assertThat(db.serverConnections()).as("server sessions while the pool is open")
                    .isBetween(1, THREADS + 1);
        }

        int expected = THREADS * committingTransactionsPerThread();
        assertThat(committed).isEqualTo(expected);
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT sum(n) FROM counter")).as("sum of the counters").isEqualTo(expected);
            assertThat(single(s, "SELECT count(*) FROM event")).as("events").isEqualTo(expected);
            assertThat(single(s, "SELECT count(*) FROM (SELECT DISTINCT worker, seq FROM event) d"))
                    .as("distinct (worker, seq)").isEqualTo(expected);
            assertThat(single(s, "SELECT count(*) FROM event WHERE mod(seq, 9) = 8")).as("rolled-back events").isZero();
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).as("server sessions after the pool closed").isZero();
    }

    @ForEachVendor
    void unwrapThroughHikarisProxyReachesTheVendorConnection(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_unwrap");
        Class<?> vendorType = VendorSql.vendorConnectionType(vendor);
        try (HikariDataSource pool = new HikariDataSource(poolConfig(db, db.replUrl()));
                Connection c = pool.getConnection()) {
            assertThat(c.getClass().getName()).as("Hikari's own proxy").startsWith("com.zaxxer.hikari.");
            assertThat(c.unwrap(Connection.class).getClass().getName())
                    .as("what Hikari wraps is the jdbc:repl: proxy").startsWith("io.jdbcrepl.");
            assertThat(c.isWrapperFor(vendorType)).isTrue();
            Object vendorConnection = c.unwrap(vendorType);
            assertThat(vendorConnection).isInstanceOf(vendorType);
            assertThat(vendorConnection.getClass().getName()).doesNotStartWith("io.jdbcrepl.")
                    .doesNotStartWith("com.zaxxer.");
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).as("server sessions after the pool closed").isZero();
    }

    @ForEachVendor
    void readmeStyleConfigurationWithDriverClassName(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_props");
        Properties p = new Properties();
        p.setProperty("jdbcUrl", db.replUrl());
        p.setProperty("driverClassName", "io.jdbcrepl.ReplDriver");
        p.setProperty("username", db.user());
        p.setProperty("password", db.password());
        p.setProperty("maximumPoolSize", "2");
        p.setProperty("dataSource.repl.tables", "*.*");
        p.setProperty("dataSource.repl.supplemental", "ALL");
        try (HikariDataSource pool = new HikariDataSource(new HikariConfig(p));
                Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE greeting (id int PRIMARY KEY, text varchar(20))");
            assertThat(s.executeUpdate("INSERT INTO greeting VALUES (1, 'hello')")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT text FROM greeting")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("hello");
            }
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).isZero();
    }

    /** dataSourceClassName=io.jdbcrepl.ReplDataSource: HikariCP sets url, user, password, config. */
    @ForEachVendor
    void dataSourceClassNameWithReplDataSource(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_ds");
        Properties p = new Properties();
        p.setProperty("dataSourceClassName", "io.jdbcrepl.ReplDataSource");
        p.setProperty("dataSource.url", db.replUrl(java.util.Map.of("repl.supplemental", "ALL")));
        p.setProperty("dataSource.user", db.user());
        p.setProperty("dataSource.password", db.password());
        p.setProperty("maximumPoolSize", "2");
        try (HikariDataSource pool = new HikariDataSource(new HikariConfig(p));
                Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            assertThat(c.isWrapperFor(java.sql.Connection.class)).isTrue();
            assertThat(c.unwrap(Connection.class).getClass().getName()).startsWith("io.jdbcrepl.proxy.");
            s.execute("CREATE TABLE greeting (id int PRIMARY KEY, text varchar(20))");
            assertThat(s.executeUpdate("INSERT INTO greeting VALUES (1, 'hello')")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT text FROM greeting")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("hello");
            }
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).isZero();
    }

    @ForEachVendor
    void unknownReplKeyInDataSourcePropertiesFailsPoolStart(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_bad");
        HikariConfig config = poolConfig(db, db.replUrl());
        config.addDataSourceProperty("repl.tabels", "*.*");
        assertThatThrownBy(() -> new HikariDataSource(config).close())
                .rootCause()
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.tabels")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42704"));
        assertThat(db.awaitServerConnectionsAtMost(0)).as("server sessions after the failed start").isZero();
    }

    @ForEachVendor
    void badReplValueInDataSourcePropertiesFailsPoolStart(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_bad");
        HikariConfig config = poolConfig(db, db.replUrl());
        config.addDataSourceProperty("repl.unsupported", "ignore");
        assertThatThrownBy(() -> new HikariDataSource(config).close())
                .rootCause()
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.unsupported")
                .hasMessageContaining("ignore")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
        assertThat(db.awaitServerConnectionsAtMost(0)).as("server sessions after the failed start").isZero();
    }

    /**
     * Issue 16: a statement the driver refuses (SQLState 0AR01) leaves its pooled connection alone.
     * HikariCP evicts a connection whose statement fails with 0A000 (as with class 08): with that
     * state every refusal cost the pool its connection and a new connect.
     */
    @ForEachVendor
    void aRefusedStatementKeepsItsPooledConnection(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hikari_refused");
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE item (id int PRIMARY KEY, qty int)");
            s.execute("INSERT INTO item VALUES (1, 0)");
        }
        HikariConfig config = poolConfig(db, db.replUrl(Map.of("repl.node", "n1", "repl.tables", "*.*")));
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        AtomicInteger connectsMade = new AtomicInteger();
        config.setMetricsTrackerFactory((poolName, stats) -> new IMetricsTracker() {
            @Override
            public void recordConnectionCreatedMillis(long millis) {
                connectsMade.incrementAndGet();
            }
        });
        try (HikariDataSource pool = new HikariDataSource(config)) {
            HikariPoolMXBean metrics = pool.getHikariPoolMXBean();
            Connection physical;
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                physical = c.unwrap(Connection.class);
                s.executeUpdate("UPDATE item SET qty = 1 WHERE id = 1");
            }
            int connectsBefore = connectsMade.get(); // HikariCP does not count the connect of its fail-fast start

            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.execute("UPDATE item SET qty = 2 WHERE id = 1; UPDATE item SET qty = 3"))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0AR01"));
                assertThatThrownBy(() -> c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE))
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0AR01"));
                assertThat(c.isClosed()).as("the application's connection after the refusals").isFalse();
                assertThat(s.executeUpdate("UPDATE item SET qty = 4 WHERE id = 1")).as("a statement after them").isEqualTo(1);
            }

            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT qty FROM item WHERE id = 1")) {
                assertThat(c.unwrap(Connection.class)).as("the pooled connection after the refusals").isSameAs(physical);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(4);
            }
            assertThat(connectsMade.get()).as("connects made after the refusals").isEqualTo(connectsBefore);
            assertThat(metrics.getTotalConnections()).as("total connections").isEqualTo(1);
        }
    }

    // ------------------------------------------------------------------ workload

    /** Runs THREADS workers at once; returns how many transactions committed. */
    private static int runWorkload(HikariDataSource pool) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int w = 0; w < THREADS; w++) {
                int worker = w;
                workers.add(executor.submit(() -> {
                    start.await();
                    return work(pool, worker);
                }));
            }
            start.countDown();
            int committed = 0;
            for (Future<Integer> f : workers) {
                committed += f.get(120, TimeUnit.SECONDS);
            }
            return committed;
        } finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static int work(HikariDataSource pool, int worker) throws SQLException {
        int committed = 0;
        for (int seq = 0; seq < TRANSACTIONS_PER_THREAD; seq++) {
            int counter = (worker + seq) % COUNTERS;
            boolean rollback = rollsBack(seq);
            try (Connection c = pool.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement update = c.prepareStatement("UPDATE counter SET n = n + 1 WHERE id = ?");
                        PreparedStatement insert = c.prepareStatement("INSERT INTO event (worker, seq) VALUES (?, ?)");
                        PreparedStatement read = c.prepareStatement("SELECT n FROM counter WHERE id = ?")) {
                    update.setInt(1, counter);
                    if (update.executeUpdate() != 1) throw new AssertionError("counter " + counter + " not updated");
                    insert.setInt(1, worker);
                    insert.setInt(2, seq);
                    insert.executeUpdate();
                    read.setInt(1, counter);
                    try (ResultSet rs = read.executeQuery()) {
                        if (!rs.next() || rs.getLong(1) < 1) throw new AssertionError("own update not visible");
                    }
                }
                if (rollback) {
                    c.rollback();
                } else {
                    c.commit();
                    committed++;
                }
            }
        }
        return committed;
    }

    /** Every ninth transaction of a worker rolls back. */
    private static boolean rollsBack(int seq) {
        return seq % 9 == 8;
    }

    private static int committingTransactionsPerThread() {
        int n = 0;
        for (int seq = 0; seq < TRANSACTIONS_PER_THREAD; seq++) {
            if (!rollsBack(seq)) n++;
        }
        return n;
    }

    // ------------------------------------------------------------------ setup

    private static HikariConfig poolConfig(TestDatabase db, String jdbcUrl) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(db.user());
        config.setPassword(db.password());
        config.setMaximumPoolSize(THREADS);
        config.setPoolName("repl-it-" + db.vendor());
        config.setConnectionTimeout(30_000);
        return config;
    }

    private static void createTables(TestDatabase db) throws SQLException {
        String autoKey = db.vendor().isMariaDbServer() ? "id int AUTO_INCREMENT PRIMARY KEY"
                : "id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint NOT NULL)");
            s.execute("CREATE TABLE event (" + autoKey + ", worker int NOT NULL, seq int NOT NULL)");
            for (int i = 0; i < COUNTERS; i++) {
                s.execute("INSERT INTO counter VALUES (" + i + ", 0)");
            }
        }
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
