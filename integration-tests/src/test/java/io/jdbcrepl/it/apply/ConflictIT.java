package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.it.support.LogCapture;
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
 * repl_error/repl_error_lcr and goes on with later transactions, none applied twice, and logs one
 * WARN line per unresolved conflict naming table, key, columns and values. The history of a queued
 * transaction survives its rollback (SPEC 5.5), linked to its entry.
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
        String log;
        try (LogCapture capture = LogCapture.start()) {
            cluster.admin(0).startApply();
            cluster.admin(1).startApply();
            cluster.waitForAll();
            log = capture.text();
        }
        List<String> queuedLines = log.lines().filter(l -> l.contains("moved to the error queue")).toList();
        assertThat(queuedLines).as("one line per unresolved conflict in:%n%s", log).hasSize(2);
        // the table, its key columns and the reason; the values only at DEBUG and in repl_error (SPEC 8.8)
        assertThat(queuedLines).anySatisfy(l -> assertThat(l).containsIgnoringCase("WARN").contains("from n2", "at n1")
                .containsIgnoringCase("emp (key id)").contains("ROW_EXISTS").doesNotContain("4400", "4900", "5000"));
        assertThat(queuedLines).anySatisfy(l -> assertThat(l).contains("from n1", "at n2")
                .containsIgnoringCase("emp (key id)").contains("ROW_EXISTS").doesNotContain("4400", "4900", "5000"));

        assertThat(cluster.rows(0, "emp", "id")).containsExactly("id=1, salary=4900", "id=2, salary=100", "id=3, salary=200");
        assertThat(cluster.rows(1, "emp", "id")).containsExactly("id=1, salary=5000", "id=2, salary=100", "id=3, salary=200");
        for (int i = 0; i < 2; i++) {
            String other = Cluster.name(1 - i);
            try (Connection c = cluster.db(i).openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(cluster.db(i).driverTables("SELECT source_database, message_number,"
                            + " message_count, error_code, error_message, id FROM repl_error"))) {
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

    /**
     * n2's transaction has two LCRs: the first's salary conflict is resolved (IGNORE), the second's
     * bonus conflict has no handler, so n1 queues the transaction. Both conflicts stay in n1's
     * repl_conflict with the entry's id, the resolved one ROLLED_BACK (it was rolled back with the
     * transaction); n1's error queue holds the one entry.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void theConflictHistoryOfAQueuedTransactionSurvivesItsRollback(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "history", 2), Map.of("repl.apply", "false",
                "repl.handler.sal.table", "emp", "repl.handler.sal.type", "IGNORE", "repl.handler.sal.columns", "salary"));
        cluster.ddl(v -> List.of("CREATE TABLE emp (id BIGINT PRIMARY KEY, salary DECIMAL(10,2), bonus INT)",
                "INSERT INTO emp (id, salary, bonus) VALUES (1, 4400, 0)"));
        execute(0, "UPDATE emp SET salary = 4900, bonus = 1 WHERE id = 1");
        try (Connection c = cluster.open(1); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("UPDATE emp SET salary = 5000 WHERE id = 1");
            s.executeUpdate("UPDATE emp SET bonus = 2 WHERE id = 1");
            c.commit();
        }
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        assertThat(cluster.rows(0, "emp", "id")).containsExactly("id=1, salary=4900, bonus=1");
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_error")).isEqualTo(1);
        long entry = cluster.count(0, "SELECT id FROM repl_error");
        assertThat(cluster.count(0, "SELECT message_count FROM repl_error")).isEqualTo(2);
        assertThat(cluster.count(0, "SELECT message_number FROM repl_error")).isEqualTo(2);
        assertThat(cluster.rows(0, "repl_conflict", "source_position")).as("n1's conflict history").satisfiesExactly(
                first -> assertThat(first).contains("handler_name=sal", "handler_type=IGNORE", "outcome=ROLLED_BACK",
                        "detail=error queue entry " + entry + ", rolled back from DESTINATION_KEPT"),
                second -> assertThat(second).contains("outcome=NO_HANDLER", "detail=error queue entry " + entry + ": ")
                        .containsIgnoringCase("bonus"));
    }

    private void execute(int node, String sql) throws Exception {
        try (Connection c = cluster.open(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
