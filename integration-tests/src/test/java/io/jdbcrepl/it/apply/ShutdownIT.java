package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code Repl.shutdown()}: the inbound servers' and the change notifiers' threads end and their
 * connections close; a later connection starts them again.
 */
class ShutdownIT extends ClusterTest {

    @Test
    void shutdownEndsTheDriversThreadsAndClosesItsConnections() throws Exception {
        cluster = new Cluster(databases.nodes("shutdown", Vendor.POSTGRESQL, Vendor.POSTGRESQL));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY)"));
        cluster.execute(0, "INSERT INTO t VALUES (1)"); // a captured commit: n1's notifier sends
        cluster.waitForAll();
        assertThat(driverThreads()).as("running before the shutdown").isNotEmpty();
        assertThat(connections()).as("the driver's connections before the shutdown").isPositive();

        // counted on one connection of the test's own: a connection per count would leave backends
        // that are still exiting when the next count looks
        try (Connection asking = cluster.db(0).openRaw()) {
            Repl.shutdown();
            long deadline = System.nanoTime() + 15_000_000_000L;
            while ((!driverThreads().isEmpty() || connections(asking) > 0) && System.nanoTime() < deadline) Thread.sleep(50);
            assertThat(driverThreads()).as("threads of the driver after Repl.shutdown()").isEmpty();
            assertThat(connections(asking)).as("connections to the nodes' databases after Repl.shutdown()").isZero();
        }

        cluster.execute(0, "INSERT INTO t VALUES (2)"); // starts n1's inbound server again (repl.peers)
        cluster.waitForAll();
        assertThat(cluster.rows(1, "t", "id")).containsExactly("id=1", "id=2");
    }

    /** The driver's own threads (the read-ahead pool's idle workers are daemon threads that end on their own). */
    private static List<String> driverThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("jdbc-repl-apply-") || n.startsWith("jdbc-repl-purge-")
                        || n.startsWith("jdbc-repl-notify-"))
                .toList();
    }

    /** Backends connected to the two nodes' databases, other than the one asking. */
    private long connections() throws Exception {
        try (Connection asking = cluster.db(0).openRaw()) {
            return connections(asking);
        }
    }

    private long connections(Connection asking) throws Exception {
        try (Statement s = asking.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                + " WHERE pid <> pg_backend_pid() AND datname IN ('" + cluster.db(0).name() + "', '" + cluster.db(1).name() + "')")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
