package io.jdbcrepl.demo;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two demo nodes that stamp a row with the same time: a value in the future on both (a peer's clock
 * ahead), so SPEC 5.6 makes each node's update add one microsecond to it. MAXIMUM cannot resolve the
 * tie; the demo's TieBreak lets the greater salary win on both nodes, with nothing in the error queue.
 */
class TieBreakTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @Test
    void equalMaintainedTimestampsOnTwoNodesConverge() throws Exception {
        try (DemoCluster cluster = DemoCluster.embedded(2)) {
            cluster.createTables();
            for (int i = 0; i < 2; i++) {
                cluster.open(i).close();
                raw(cluster, i, "UPDATE demo_employees SET updated_at = TIMESTAMP '2099-01-01 00:00:00' WHERE employee_id = 100");
            }
            update(cluster, 0, "UPDATE demo_employees SET salary = 3100 WHERE employee_id = 100");
            update(cluster, 1, "UPDATE demo_employees SET salary = 3000 WHERE employee_id = 100");
            for (int i = 0; i < 2; i++) {
                assertThat(read(cluster, i, "SELECT CAST(updated_at AS VARCHAR(40)) FROM demo_employees WHERE employee_id = 100"))
                        .as("the tie this test is about").isEqualTo("2099-01-01 00:00:00.000001");
            }
            for (int i = 0; i < 2; i++) cluster.admin(i).startApply();
            for (int i = 0; i < 2; i++) cluster.admin(i).waitForPeers(CATCH_UP);
            for (int i = 0; i < 2; i++) {
                assertThat(read(cluster, i, "SELECT CAST(salary AS INT) FROM demo_employees WHERE employee_id = 100"))
                        .as("salary on n" + (i + 1)).isEqualTo("3100");
                assertThat(read(cluster, i, "SELECT COUNT(*) FROM " + cluster.driverTable(i, "repl_error")))
                        .as("error queue of n" + (i + 1)).isEqualTo("0");
            }
        }
    }

    private static void raw(DemoCluster cluster, int node, String sql) throws SQLException {
        try (Connection c = cluster.openRaw(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static void update(DemoCluster cluster, int node, String sql) throws SQLException {
        try (Connection c = cluster.open(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static String read(DemoCluster cluster, int node, String sql) throws SQLException {
        try (Statement s = cluster.reader(node).createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
