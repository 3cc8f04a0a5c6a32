package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.7, a peer's log is input, not orders: LCRs written into n1's repl_log by hand (a copy of a
 * captured transaction with one field changed, its original removed) name an unknown source node, a
 * system schema, one of n2's driver tables or n2's driver schema, an unknown command type or an unknown value type; and a
 * table n2 excludes is captured at n1 for real. n2 applies none of them: each transaction is in its
 * error queue with SQLState 42501 and the reason, a retry keeps it there, and the legitimate
 * transaction committed after them is applied.
 */
class HostilePeerIT extends ClusterTest {

    private static final String LOG_COLUMNS = "source_node, command_type, schema_name, table_name, old_values,"
            + " new_values, column_types, change_vector";

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void forgedLcrsAreQueuedNotApplied(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("hostile", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false"))
                .with(1, Map.of("repl.exclude", "secret"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "CREATE TABLE secret (id INT PRIMARY KEY, v VARCHAR(20))"));
        Vendor source = vendors.get(0);
        if (!vendors.get(1).isMariaDbServer()) {
            // a table the forged "SYS" LCR would have found at n2 (folded to sys) without the checks
            raw(1, "CREATE SCHEMA sys");
            raw(1, "CREATE TABLE sys.employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))");
        }
        // and one in n2's driver schema
        String n2DriverSchema = cluster.db(1).driverSchema();
        raw(1, "CREATE TABLE " + n2DriverSchema + ".employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))");
        // one captured transaction per forged kind, each the template of its forgery
        for (int id = 11; id <= 16; id++) cluster.execute(0, "INSERT INTO employees VALUES (" + id + ", 100)");
        cluster.execute(0, "INSERT INTO secret VALUES (1, 'hidden')");
        ForgedLog forger = new ForgedLog(cluster.db(0), LOG_COLUMNS);
        List<String> templates = forger.txIds();
        assertThat(templates).hasSize(7);

        boolean pg = !source.isMariaDbServer();
        forger.forge(templates.get(0), "source_node", "'intruder'");
        forger.forge(templates.get(1), "schema_name", "'SYS'");
        forger.forge(templates.get(2), "table_name", "'repl_progress'");
        forger.forge(templates.get(3), "command_type", "'MERGE'");
        forger.forge(templates.get(4), "column_types",
                pg ? "REPLACE(column_types::text, 'DECIMAL', 'BOGUS')::json" : "REPLACE(column_types, 'DECIMAL', 'BOGUS')");
        forger.forge(templates.get(5), "schema_name", "'" + n2DriverSchema + "'");
        cluster.execute(0, "INSERT INTO employees VALUES (99, 1)"); // legitimate, after all of them

        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);

        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly("employee_id=99, salary=1");
        assertThat(cluster.count(1, "SELECT count(*) FROM secret")).isZero();
        if (!vendors.get(1).isMariaDbServer()) assertThat(cluster.count(1, "SELECT count(*) FROM sys.employees")).isZero();
        assertThat(cluster.count(1, "SELECT count(*) FROM " + n2DriverSchema + ".employees")).isZero();
        ReplAdmin n2 = cluster.admin(1);
        List<ErrorEntry> queued = n2.errors();
        assertThat(queued).hasSize(7).allSatisfy(e -> {
            assertThat(e.sourceDatabase()).isEqualTo("n1");
            assertThat(e.errorCode()).isEqualTo("42501");
        });
        assertThat(queued).extracting(ErrorEntry::errorMessage).satisfiesExactly( // in source position order
                m -> assertThat(m).contains("secret", "repl.apply.tables"),
                m -> assertThat(m).contains("employees", "names source node intruder", "not the peer it was read from"),
                m -> assertThat(m).contains("SYS.employees", "system schema"),
                m -> assertThat(m).contains("repl_progress", "driver's own tables"),
                m -> assertThat(m).contains("employees", "MERGE", "cannot be read"),
                m -> assertThat(m).contains("employees", "BOGUS", "cannot be read"),
                m -> assertThat(m).contains(n2DriverSchema + ".employees", "driver's schema"));
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error_lcr")).isEqualTo(7); // each kept, as stored

        // a retry does not make a forged entry applicable
        for (ErrorEntry e : queued) {
            assertThatThrownBy(() -> n2.retryError(e.id())).isInstanceOf(SQLException.class)
                    .satisfies(x -> assertThat(((SQLException) x).getMessage()).containsAnyOf("42501", "cannot be read",
                            "still fails"));
        }
        assertThat(n2.errors()).hasSize(7).allSatisfy(e -> assertThat(e.errorCode()).isEqualTo("42501"));
        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly("employee_id=99, salary=1");
        assertThat(cluster.count(1, "SELECT count(*) FROM secret")).isZero();
    }

    private void raw(int node, String sql) throws SQLException {
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
