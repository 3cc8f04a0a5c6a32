package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.admin.NodeStatus;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The seed's salary example without handlers (SPEC 5.3's first row): both nodes update the same row
 * before either applies the other's change; each node queues the other's transaction in
 * repl_error/repl_error_lcr and goes on with later transactions, none applied twice.
 */
class ConflictIT extends ClusterTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void anUpdateConflictQueuesTheTransactionAndApplyGoesOn(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "conflict", 2), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE emp (id BIGINT PRIMARY KEY, salary DECIMAL(10,2))",
                "INSERT INTO emp (id, salary) VALUES (1, 4400)"));
        execute(0, "UPDATE emp SET salary = 4900 WHERE id = 1");
        execute(1, "UPDATE emp SET salary = 5000 WHERE id = 1");
        execute(0, "INSERT INTO emp (id, salary) VALUES (2, 100)");
        execute(1, "INSERT INTO emp (id, salary) VALUES (3, 200)");
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        assertThat(cluster.rows(0, "emp", "id")).containsExactly("id=1, salary=4900", "id=2, salary=100", "id=3, salary=200");
        assertThat(cluster.rows(1, "emp", "id")).containsExactly("id=1, salary=5000", "id=2, salary=100", "id=3, salary=200");
        for (int i = 0; i < 2; i++) {
            String other = Cluster.name(1 - i);
            try (Connection c = cluster.db(i).openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT source_database, message_number, message_count, error_code,"
                            + " error_message, id FROM repl_error")) {
                assertThat(rs.next()).as("an error queue entry at " + Cluster.name(i)).isTrue();
                assertThat(rs.getString(1)).isEqualTo(other);
                assertThat(rs.getInt(2)).isEqualTo(1);
                assertThat(rs.getInt(3)).isEqualTo(1);
                assertThat(rs.getString(4)).isEqualTo("ROW_EXISTS");
                assertThat(rs.getString(5)).containsIgnoringCase("salary");
                long id = rs.getLong(6);
                assertThat(rs.next()).isFalse();
                assertThat(cluster.rows(i, "repl_error_lcr", "seq")).singleElement().satisfies(row -> assertThat(row)
                        .contains("error_id=" + id, "seq=1", "command_type=UPDATE", "source_node=" + other));
            }
            assertThat(cluster.count(i, "SELECT applied_transactions FROM repl_progress")).isEqualTo(1);
            assertThat(cluster.count(i, "SELECT queued_transactions FROM repl_progress")).isEqualTo(1);
            NodeStatus status = cluster.admin(i).status();
            assertThat(status.peers()).singleElement().satisfies(p -> {
                assertThat(p.peer()).isEqualTo(other);
                assertThat(p.queueDepth()).isEqualTo(1);
                assertThat(p.lagTransactions()).isZero();
                assertThat(p.state()).isEqualTo("RUNNING");
            });
        }
    }

    private void execute(int node, String sql) throws Exception {
        try (Connection c = cluster.open(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
