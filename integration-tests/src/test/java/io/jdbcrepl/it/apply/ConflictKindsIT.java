package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Uniqueness conflicts (both nodes insert one key) and delete conflicts (one node deletes the row
 * the other updates) on two nodes (PostgreSQL, MariaDB, PostgreSQL ⇄ MariaDB), each change committed before either applier runs:
 * resolved by the configured handlers or, without one, the transaction queued on both nodes.
 */
class ConflictKindsIT extends ClusterTest {

    private List<TestDatabase> dbs;

    private void start(List<Vendor> vendors) throws SQLException {
        dbs = databases.nodes("kinds", vendors.toArray(Vendor[]::new));
        cluster = new Cluster(dbs, Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))"));
    }

    /** Resets both nodes to employee 200 earning 4400, runs one statement per node, then applies. */
    private void run(Map<String, String> handlers, String atN1, String atN2) throws Exception {
        Repl.shutdown();
        for (int i = 0; i < 2; i++) {
            try (Connection c = dbs.get(i).openRaw(); Statement s = c.createStatement()) {
                for (String q : List.of("DELETE FROM employees", "INSERT INTO employees VALUES (200, 4400)",
                        "DELETE FROM repl_error_lcr", "DELETE FROM repl_error", "DELETE FROM repl_conflict")) {
                    s.executeUpdate(dbs.get(i).driverTables(q));
                }
            }
        }
        Map<String, String> props = new LinkedHashMap<>(handlers);
        props.put("repl.apply", "false");
        cluster = new Cluster(dbs, props);
        cluster.execute(0, atN1);
        cluster.execute(1, atN2);
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();
    }

    private static Map<String, String> handler(String name, String operation, String conflict, String type,
            String resolution) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.handler." + name + ".table", "employees");
        p.put("repl.handler." + name + ".operation", operation);
        p.put("repl.handler." + name + ".conflict", conflict);
        p.put("repl.handler." + name + ".type", type);
        if (resolution != null) {
            p.put("repl.handler." + name + ".columns", resolution);
            p.put("repl.handler." + name + ".resolution", resolution);
        }
        return p;
    }

    private static final String INSERT_N1 = "INSERT INTO employees VALUES (300, 1000)";
    private static final String INSERT_N2 = "INSERT INTO employees VALUES (300, 2000)";

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void sameKeyInsertedOnBothNodes(List<Vendor> vendors) throws Exception {
        start(vendors);
        run(Map.of(), INSERT_N1, INSERT_N2);
        assertSalary300(1000, 2000);
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error WHERE error_code = 'ROW_EXISTS'")).isEqualTo(1);
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'UNIQUENESS'"
                    + " AND operation = 'INSERT' AND outcome = 'NO_HANDLER'")).isEqualTo(1);
        }

        run(handler("ins", "INSERT", "ROW_EXISTS", "MAXIMUM", "salary"), INSERT_N1, INSERT_N2);
        assertSalary300(2000, 2000);
        assertQueues(0, 0);

        run(handler("ins", "INSERT", "ROW_EXISTS", "OVERWRITE", null), INSERT_N1, INSERT_N2);
        assertSalary300(2000, 1000); // OVERWRITE alone swaps (SPEC 5.3)
        assertQueues(0, 0);

        run(handler("ins", "INSERT", "ROW_EXISTS", "RECORD", null), INSERT_N1, INSERT_N2);
        assertSalary300(1000, 2000);
        assertQueues(1, 1);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_error_lcr WHERE command_type = 'INSERT'")).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void deleteOnOneNodeUpdateOnTheOther(List<Vendor> vendors) throws Exception {
        start(vendors);
        String delete = "DELETE FROM employees WHERE employee_id = 200";
        String update = "UPDATE employees SET salary = 5000 WHERE employee_id = 200";
        run(Map.of(), delete, update);
        assertThat(cluster.rows(0, "employees", "employee_id")).isEmpty();
        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly("employee_id=200, salary=5000");
        assertQueues(1, 1);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'DELETE'"
                + " AND operation = 'UPDATE' AND conflict_type = 'ROW_MISSING'")).isEqualTo(1);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'DELETE'"
                + " AND operation = 'DELETE' AND conflict_type = 'ROW_EXISTS'")).isEqualTo(1);

        // the delete wins: the update of the missing row is ignored, the delete done anyway
        Map<String, String> deleteWins = new LinkedHashMap<>(handler("um", "UPDATE", "ROW_MISSING", "IGNORE", null));
        deleteWins.putAll(handler("de", "DELETE", "ROW_EXISTS", "OVERWRITE", null));
        run(deleteWins, delete, update);
        assertThat(cluster.rows(0, "employees", "employee_id")).isEmpty();
        assertThat(cluster.rows(1, "employees", "employee_id")).isEmpty();
        assertQueues(0, 0);

        // the update wins: it becomes an insert where the row is gone, the delete is ignored
        Map<String, String> updateWins = new LinkedHashMap<>(handler("um", "UPDATE", "ROW_MISSING", "OVERWRITE", null));
        updateWins.putAll(handler("de", "DELETE", "ROW_EXISTS", "IGNORE", null));
        run(updateWins, delete, update);
        assertThat(cluster.rows(0, "employees", "employee_id")).containsExactly("employee_id=200, salary=5000");
        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly("employee_id=200, salary=5000");
        assertQueues(0, 0);
    }

    private void assertSalary300(int n1, int n2) throws SQLException {
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 300")).as("n1").isEqualTo(n1);
        assertThat(cluster.count(1, "SELECT salary FROM employees WHERE employee_id = 300")).as("n2").isEqualTo(n2);
    }

    private void assertQueues(int n1, int n2) throws SQLException {
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_error")).as("error queue at n1").isEqualTo(n1);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("error queue at n2").isEqualTo(n2);
    }
}
