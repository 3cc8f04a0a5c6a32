package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.ReplDriver;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The driver's background work lives as long as the application uses it (issue 16, item 8): two
 * nodes behind HikariCP; when a node's last connection closes (the pool shuts down) its apply,
 * purge and notify threads and their sessions end after a short linger, a connection during the
 * linger keeps them, the next connection starts them again, and deregistering the driver from
 * DriverManager (what a container does when the application stops) ends everything at once.
 */
class LifecycleIT extends ClusterTest {

    /** The driver's linger (five seconds) and a margin for a loaded machine. */
    private static final Duration AFTER_LINGER = Duration.ofSeconds(20);

    /** Threads are counted JVM-wide: the nodes of tests that ran before (all named n1, n2...) end first. */
    @BeforeEach
    void noThreadsOfEarlierTests() {
        Repl.shutdown();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void closingThePoolsEndsTheNodesThreadsAndSessions(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "lifecycle", 2));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY)"));
        try (HikariDataSource p1 = cluster.pool(0, 2); HikariDataSource p2 = cluster.pool(1, 2)) {
            insertAndAwait(p1, p2, 1);
            assertThat(driverThreads()).as("the driver's threads while the pools are open")
                    .anyMatch(n -> n.startsWith("jdbc-repl-apply-n1->n2")).anyMatch(n -> n.startsWith("jdbc-repl-apply-n2->n1"));
            assertThat(nonDaemonDriverThreads()).as("driver threads that would keep the JVM alive").isEmpty();
        }
        awaitNoDriverThreads();
        assertThat(driverThreads()).as("the driver's threads after the pools closed and the linger passed").isEmpty();
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.db(i).awaitServerConnectionsAtMost(0, AFTER_LINGER))
                    .as("sessions on %s after the pools closed and the linger passed", Cluster.name(i)).isZero();
        }

        // new pools: the apply side starts again with their first connections
        try (HikariDataSource p1 = cluster.pool(0, 2); HikariDataSource p2 = cluster.pool(1, 2)) {
            insertAndAwait(p1, p2, 2);
            assertThat(cluster.rows(1, "t", "id")).containsExactly("id=1", "id=2");
        }
    }

    @Test
    void aConnectionDuringTheLingerKeepsTheApplySide() throws Exception {
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "lifecycle_keep", 2));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY)"));
        Thread applier;
        try (HikariDataSource p1 = cluster.pool(0, 1); HikariDataSource p2 = cluster.pool(1, 1)) {
            insertAndAwait(p1, p2, 1);
            applier = driverThread("jdbc-repl-apply-n1->n2");
        }
        try (Connection again = cluster.open(1)) { // within the linger of n2's last connection
            Thread.sleep(7_000); // longer than the linger: what is asserted is that nothing happens
            assertThat(applier.isAlive()).as("n2's applier kept by the connection opened during the linger").isTrue();
            assertThat(driverThread("jdbc-repl-apply-n1->n2")).isSameAs(applier);
        }
    }

    /**
     * An application that starts the apply side itself ({@code repl.apply=false}, then
     * {@code startApply()}): after its connections closed and the linger stopped it, its next
     * connection starts it again, as with {@code repl.apply=true}.
     */
    @Test
    void anApplySideStartedByStartApplyStartsAgainWithTheNextConnection() throws Exception {
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "lifecycle_start", 2), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY)"));
        try (Connection c1 = cluster.open(0); Connection c2 = cluster.open(1)) {
            c1.unwrap(ReplAdmin.class).startApply();
            c2.unwrap(ReplAdmin.class).startApply();
            try (Statement s = c1.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (1)");
            }
            c2.unwrap(ReplAdmin.class).waitForPeers(Cluster.WAIT);
        }
        awaitNoDriverThreads();
        assertThat(driverThreads()).as("the driver's threads after the connections closed and the linger passed").isEmpty();

        cluster.execute(0, "INSERT INTO t VALUES (2)");
        try (Connection c2 = cluster.open(1)) {
            c2.unwrap(ReplAdmin.class).waitForPeers(Duration.ofSeconds(30));
        }
        assertThat(cluster.rows(1, "t", "id")).containsExactly("id=1", "id=2");
    }

    @Test
    void deregisteringTheDriverEndsItsThreadsAtOnce() throws Exception {
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "lifecycle_deregister", 2));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY)"));
        Driver driver = DriverManager.getDriver(cluster.url(0));
        assertThat(driver).isInstanceOf(ReplDriver.class);
        try {
            try (HikariDataSource p1 = cluster.pool(0, 2); HikariDataSource p2 = cluster.pool(1, 2)) {
                insertAndAwait(p1, p2, 1);
                assertThat(driverThreads()).isNotEmpty();
                DriverManager.deregisterDriver(driver); // the pools are still open: no linger involved
                assertThat(driverThreads()).as("the driver's threads right after deregisterDriver").isEmpty();
            }
            for (int i = 0; i < 2; i++) {
                assertThat(cluster.db(i).awaitServerConnectionsAtMost(0, Duration.ofSeconds(10)))
                        .as("sessions on %s after deregisterDriver and the pools closed", Cluster.name(i)).isZero();
            }
        } finally {
            if (!ReplDriver.isRegistered()) ReplDriver.register();
        }
        try (HikariDataSource p1 = cluster.pool(0, 2); HikariDataSource p2 = cluster.pool(1, 2)) {
            insertAndAwait(p1, p2, 2);
            assertThat(cluster.rows(1, "t", "id")).containsExactly("id=1", "id=2");
        }
    }

    /** Inserts a row at n1 through its pool and waits until n2 has applied it, through n2's pool. */
    private static void insertAndAwait(HikariDataSource n1, HikariDataSource n2, int id) throws SQLException {
        try (Connection c = n1.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t VALUES (" + id + ")");
            c.commit();
        }
        try (Connection c = n2.getConnection()) {
            c.unwrap(ReplAdmin.class).waitForPeers(Cluster.WAIT);
        }
    }

    private static Set<Thread> driverThreadObjects() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("jdbc-repl-")).collect(Collectors.toSet());
    }

    private static List<String> driverThreads() {
        return driverThreadObjects().stream().map(Thread::getName).sorted().toList();
    }

    private static List<String> nonDaemonDriverThreads() {
        return driverThreadObjects().stream().filter(t -> !t.isDaemon()).map(Thread::getName).toList();
    }

    private static Thread driverThread(String name) {
        return driverThreadObjects().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + name + " among " + driverThreads()));
    }

    /** Polls until the driver has no thread left, at most {@link #AFTER_LINGER}; the caller asserts. */
    private static void awaitNoDriverThreads() throws InterruptedException {
        long deadline = System.nanoTime() + AFTER_LINGER.toNanos();
        while (!driverThreads().isEmpty() && System.nanoTime() < deadline) Thread.sleep(50);
    }
}
