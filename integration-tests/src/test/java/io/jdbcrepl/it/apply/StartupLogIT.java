package io.jdbcrepl.it.apply;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16 item 13: nodes started one after the other. The first node's applier finds no log at
 * the second (nothing has installed it yet): expected at startup, so the log says so once at INFO
 * and nothing at WARN; once the second node starts, applying begins and is logged once.
 */
class StartupLogIT extends ClusterTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void aPeerNotStartedYetIsNoWarning(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "startlog", 2));
        String log;
        try (LogCapture capture = LogCapture.start()) {
            for (int i = 0; i < 2; i++) {
                try (Connection c = cluster.db(i).openRaw()) {
                    c.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
                }
            }
            cluster.open(0).close();
            awaitFailedAttempts(0, "n2", 2); // n1's applier has looked for n2's log more than once
            cluster.open(1).close();
            cluster.execute(1, "INSERT INTO t VALUES (1, 'from n2')");
            cluster.waitForAll();
            log = capture.text();
        }
        assertThat(cluster.rows(0, "t", "id")).containsExactly("id=1, v=from n2");
        List<String> lines = log.lines().filter(l -> l.contains("io.jdbcrepl")).toList();
        assertThat(lines).as("the driver's log:%n%s", log).noneMatch(l -> l.contains("WARN"));
        assertThat(lines).as("the driver's log:%n%s", log).filteredOn(l -> l.contains("n1 waits for the log of n2")).singleElement()
                .satisfies(l -> assertThat(l).contains("INFO", "created by the first jdbc:repl: connection with repl.node at n2"));
        assertThat(lines).filteredOn(l -> l.contains("applying from n2 to n1")).hasSize(1);
    }

    /** Waits (bounded) until node {@code i}'s applier from {@code peer} has failed {@code count} times. */
    private void awaitFailedAttempts(int i, String peer, long count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            PeerStatus status = cluster.admin(i).status().peers().stream().filter(p -> p.peer().equals(peer)).findFirst().orElseThrow();
            if (status.errorCount() >= count) return;
            assertThat(System.nanoTime()).as("%s's applier from %s failed %d times", Cluster.name(i), peer, status.errorCount())
                    .isLessThan(deadline);
            Thread.sleep(50); // a poll of the applier's state, not a synchronisation
        }
    }
}
