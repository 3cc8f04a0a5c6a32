package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Subscribers and purge (SPEC 4.5): a peer that has not subscribed yet (here: unreachable) keeps
 * every LCR; once every peer has consumed them they are purged; a subscriber silent for longer than
 * repl.retention is dropped and shown in status. The source keeps working while a peer is down.
 */
class PurgeIT extends ClusterTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void consumedLcrsArePurgedAndASilentSubscriberIsDropped(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "purge", 2), Map.of("repl.retention", "2s"));
        cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)"));
        for (int i = 1; i <= 5; i++) execute(0, "INSERT INTO t (id, v) VALUES (" + i + ", 0)");
        cluster.waitForAll();
        awaitSubscriberCaughtUp();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).isEqualTo(5);
        assertThat(cluster.admin(0).purge()).isEqualTo(5);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).isZero();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_tx")).isZero();
        assertThat(cluster.rows(1, "t", "id")).hasSize(5);

        Repl.shutdown(); // n2 goes silent
        execute(0, "UPDATE t SET v = 1 WHERE id = 1");
        Thread.sleep(2500); // repl.retention is a time: let it pass
        assertThat(cluster.admin(0).purge()).as("LCRs kept for a dropped subscriber").isEqualTo(1);
        NodeStatus status = cluster.admin(0).status();
        assertThat(status.droppedSubscribers()).containsExactly("n2");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void aPeerNotSubscribedYetBlocksThePurgeAndAnUnreachablePeerStopsNothing(Vendor vendor) throws Exception {
        // n1 also names n9, whose database is on a dead port: it never subscribes.
        String dead = vendor == Vendor.POSTGRESQL ? "jdbc:postgresql://127.0.0.1:1/none" : "jdbc:mariadb://127.0.0.1:1/none";
        cluster = new Cluster(databases.nodes(vendor, "purge_blocked", 2))
                .with(0, Map.of("repl.peers", "n2,n9", "repl.peer.n9.url", dead));
        cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)"));
        for (int i = 1; i <= 3; i++) execute(0, "INSERT INTO t (id, v) VALUES (" + i + ", 0)");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "t", "id")).hasSize(3);
        awaitSubscriberCaughtUp();
        assertThat(cluster.admin(0).purge()).as("n9 has not subscribed").isZero();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).isEqualTo(3);
        PeerStatus n9 = cluster.admin(0).status().peers().stream().filter(p -> p.peer().equals("n9")).findFirst().orElseThrow();
        assertThat(n9.lagTransactions()).isEqualTo(-1);
        assertThat(n9.state()).isEqualTo("UNREACHABLE");
        assertThat(n9.lastError()).contains("unreachable");
    }

    /**
     * A consumer whose JVM runs in UTC-8 and a source purging in UTC (SPEC 8.8: driver timestamps
     * are not the JVM's wall time): the live subscriber is kept, with repl.retention far shorter than
     * the eight hours between the two zones' wall clocks. Before, it was dropped on MariaDB.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "MYSQL_DRIVER_ON_MARIADB", "H2"})
    void aLiveSubscriberInAnotherTimeZoneIsKept(Vendor vendor) throws Exception {
        java.util.TimeZone zone = java.util.TimeZone.getDefault();
        try {
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("Etc/GMT+8")); // the consumer's JVM: UTC-8
            cluster = new Cluster(databases.nodes(vendor, "purge_zone", 2), Map.of("repl.retention", "1h"));
            cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)"));
            for (int i = 1; i <= 5; i++) execute(0, "INSERT INTO t (id, v) VALUES (" + i + ", 0)");
            cluster.waitForAll();
            awaitSubscriberCaughtUp();
        } finally {
            java.util.TimeZone.setDefault(zone);
        }
        java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("UTC")); // the source's purge: UTC
        try {
            assertThat(cluster.admin(0).purge()).isEqualTo(5);
            assertThat(cluster.admin(0).status().droppedSubscribers()).isEmpty();
        } finally {
            java.util.TimeZone.setDefault(zone);
        }
    }

    /**
     * SPEC 8.8: repl_conflict keeps its rows for repl.retention, by the server's clock. More old rows
     * than the purge deletes per statement go (so it went on past its first chunk); recent ones stay.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void conflictsOlderThanTheRetentionArePurged(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "purge_conflict", 2), Map.of("repl.retention", "1h"));
        cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)")); // installs the driver's tables
        String now = vendor == Vendor.POSTGRESQL ? "clock_timestamp()" : "CURRENT_TIMESTAMP(6)";
        String twoHoursAgo = now + (vendor == Vendor.MARIADB ? " - INTERVAL 2 HOUR" : " - INTERVAL '2' HOUR");
        String insert = cluster.db(0).driverTables("INSERT INTO repl_conflict (conflict_time, table_name, operation,"
                + " conflict_kind, outcome, detail) VALUES (%s, 't', 'UPDATE', 'ROW_MISSING', 'IGNORED', ?)");
        try (Connection c = cluster.db(0).openRaw()) {
            try (var old = c.prepareStatement(insert.formatted(twoHoursAgo))) {
                for (int i = 0; i < 2500; i++) {
                    old.setString(1, "old " + i);
                    old.addBatch();
                }
                old.executeBatch();
            }
            try (var recent = c.prepareStatement(insert.formatted(now))) {
                for (int i = 0; i < 3; i++) {
                    recent.setString(1, "recent " + i);
                    recent.addBatch();
                }
                recent.executeBatch();
            }
        }
        cluster.admin(0).purge();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_conflict")).isEqualTo(3);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_conflict WHERE detail LIKE 'recent %'")).isEqualTo(3);
    }

    /** The subscriber row is written right after the applier's commit, best effort: wait for it. */
    private void awaitSubscriberCaughtUp() throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        String sql = "SELECT count(*) FROM repl_progress WHERE source_node = 'n1' AND position = ";
        while (true) {
            String position;
            try (Connection c = cluster.db(0).openRaw(); Statement s = c.createStatement();
                    var rs = s.executeQuery(cluster.db(0).driverTables("SELECT position FROM repl_subscriber WHERE name = 'n2'"))) {
                position = rs.next() ? rs.getString(1) : null;
            }
            if (position != null && cluster.count(1, sql + "'" + position + "'") == 1) return;
            if (System.nanoTime() > deadline) throw new AssertionError("n2 never reported its position to n1");
            Thread.sleep(10);
        }
    }

    private void execute(int node, String sql) throws Exception {
        try (Connection c = cluster.open(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
