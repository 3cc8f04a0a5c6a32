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
 * SPEC 5.3's table, every row: salary is 4400 on both nodes; n1 sets 4900 and n2 sets 5000, both
 * committed before either applier runs (the nodes write with repl.apply=false, then the appliers
 * start), so each node meets the other's LCR as an update conflict and resolves it with the same
 * handler on column list salary. One database pair per vendor combination; the row, the error
 * queue and the history are reset between cases with the appliers stopped.
 */
class PrebuiltHandlersIT extends ClusterTest {

    /** One row of the table: handler settings, salary after at n1 and n2, recorded entries per node. */
    record Case(String name, Map<String, String> handler, int n1, int n2, int queued, String outcome) {
    }

    static Map<String, String> handler(String type, String columns, String resolution) {
        Map<String, String> p = new LinkedHashMap<>();
        if (type == null) return p;
        p.put("repl.handler.sal.table", "employees");
        p.put("repl.handler.sal.type", type);
        p.put("repl.handler.sal.columns", columns);
        if (resolution != null) p.put("repl.handler.sal.resolution", resolution);
        return p;
    }

    static final List<Case> TABLE = List.of(
            new Case("none", handler(null, null, null), 4900, 5000, 1, "NO_HANDLER"),
            new Case("OVERWRITE", handler("OVERWRITE", "salary", null), 5000, 4900, 0, "LCR_APPLIED"),
            new Case("IGNORE", handler("IGNORE", "salary", null), 4900, 5000, 0, "DESTINATION_KEPT"),
            new Case("DISCARD", handler("DISCARD", "salary", null), 4900, 5000, 0, "DESTINATION_KEPT"),
            new Case("RECORD", handler("RECORD", "salary", null), 4900, 5000, 1, "RECORDED"),
            new Case("MAXIMUM salary", handler("MAXIMUM", "salary", "salary"), 5000, 5000, 0, null),
            new Case("MINIMUM salary", handler("MINIMUM", "salary", "salary"), 4900, 4900, 0, null),
            new Case("DELTA", handler("DELTA", "salary", null), 5500, 5500, 0, "DELTA_APPLIED"),
            new Case("MAXIMUM time, n2 last", withTimestamp(handler("MAXIMUM", "salary,time", "time")), 5000, 5000, 0,
                    null));

    private static Map<String, String> withTimestamp(Map<String, String> p) {
        p.put("repl.timestamp.employees", "time");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void theSalaryTable(List<Vendor> vendors) throws Exception {
        List<TestDatabase> dbs = databases.nodes("handlers", vendors.toArray(Vendor[]::new));
        cluster = new Cluster(dbs, Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2),"
                + " time " + timestampType(v) + ")",
                "INSERT INTO employees VALUES (200, 4400, '2020-01-01 00:00:00')"));
        for (Case c : TABLE) {
            Repl.shutdown();
            for (int i = 0; i < 2; i++) raw(i, "UPDATE employees SET salary = 4400, time = '2020-01-01 00:00:00'",
                    "DELETE FROM repl_error_lcr", "DELETE FROM repl_error", "DELETE FROM repl_conflict");
            Map<String, String> props = new LinkedHashMap<>(c.handler());
            props.put("repl.apply", "false");
            cluster = new Cluster(dbs, props);

            cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 200");
            cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
            cluster.admin(0).startApply();
            cluster.admin(1).startApply();
            cluster.waitForAll();

            String what = c.name() + " on " + vendors;
            assertThat(salary(0)).as(what + ": n1's salary").isEqualTo(c.n1());
            assertThat(salary(1)).as(what + ": n2's salary").isEqualTo(c.n2());
            for (int i = 0; i < 2; i++) {
                assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as(what + ": error queue at n" + (i + 1))
                        .isEqualTo(c.queued());
                if (c.queued() > 0) {
                    assertThat(cluster.count(i, "SELECT count(*) FROM repl_error WHERE error_code = 'ROW_EXISTS'"
                            + " AND message_count = 1")).as(what).isEqualTo(1);
                    assertThat(cluster.count(i, "SELECT count(*) FROM repl_error_lcr WHERE command_type = 'UPDATE'"))
                            .as(what).isEqualTo(1);
                }
                assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'UPDATE'"
                        + " AND operation = 'UPDATE' AND conflict_type = 'ROW_EXISTS' AND table_name = 'employees'"))
                        .as(what + ": conflict history at n" + (i + 1)).isGreaterThanOrEqualTo(1);
                if (c.outcome() != null) {
                    assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict WHERE outcome = '" + c.outcome() + "'"))
                            .as(what + ": outcome at n" + (i + 1)).isEqualTo(1);
                }
            }
        }
    }

    private int salary(int node) throws SQLException {
        return (int) cluster.count(node, "SELECT salary FROM employees WHERE employee_id = 200");
    }

    private void raw(int node, String... sql) throws SQLException {
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement()) {
            for (String q : sql) s.executeUpdate(cluster.db(node).driverTables(q));
        }
    }
}
