package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.it.apply.handlers.FillBody;
import io.jdbcrepl.it.apply.handlers.KeepHigherSalary;
import io.jdbcrepl.it.apply.handlers.Refuse;
import io.jdbcrepl.it.apply.handlers.UpperCaseName;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 5.4 on apply, two nodes (PostgreSQL, MariaDB, PostgreSQL ⇄ MariaDB): a DML handler replaces the default apply (here it
 * upper-cases a name, then executes the LCR), an error handler takes an update conflict that no
 * prebuilt handler resolves, another one an error that is not a conflict (a NOT NULL column at n2
 * only), a handler that throws queues its transaction, and a handler class that cannot be loaded
 * fails connect.
 */
class CustomHandlersIT extends ClusterTest {

    private static void handler(Map<String, String> p, String name, String table, String operation, Class<?> c,
            boolean errorHandler) {
        p.put("repl.dmlhandler." + name + ".table", table);
        p.put("repl.dmlhandler." + name + ".operation", operation);
        p.put("repl.dmlhandler." + name + ".class", c.getName());
        p.put("repl.dmlhandler." + name + ".error_handler", String.valueOf(errorHandler));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void dmlAndErrorHandlersOnApply(List<Vendor> vendors) throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.apply", "false");
        handler(p, "up", "people", "INSERT", UpperCaseName.class, false);
        handler(p, "no", "people", "DELETE", Refuse.class, false);
        handler(p, "pay", "employees", "UPDATE", KeepHigherSalary.class, true);
        handler(p, "fill", "notes", "INSERT", FillBody.class, true);
        cluster = new Cluster(databases.nodes("custom", vendors.toArray(Vendor[]::new)), p);
        cluster.ddl(v -> List.of("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(20))",
                "CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "INSERT INTO employees VALUES (200, 4400)", "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20))"));
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute(vendors.get(1).isMariaDbServer() ? "ALTER TABLE notes MODIFY body VARCHAR(20) NOT NULL"
                    : "ALTER TABLE notes ALTER COLUMN body SET NOT NULL");
        }
        cluster.execute(0, "INSERT INTO notes VALUES (1, NULL)");
        cluster.execute(0, "INSERT INTO people VALUES (1, 'ann')");
        cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 200");
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        assertThat(cluster.rows(0, "people", "id")).containsExactly("id=1, name=ann");
        assertThat(cluster.rows(1, "people", "id")).containsExactly("id=1, name=ANN");
        // the error handler saw n2's NOT NULL violation (SQLState class 23) and no conflict
        assertThat(cluster.rows(1, "notes", "id")).singleElement().asString().startsWith("id=1, body=error 23")
                .doesNotContain("conflict");
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.count(i, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5000);
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).isZero();
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'UPDATE'"))
                    .isEqualTo(1);
        }

        cluster.execute(0, "DELETE FROM people WHERE id = 1");
        cluster.waitForAll();
        assertThat(cluster.rows(1, "people", "id")).containsExactly("id=1, name=ANN");
        assertThat(cluster.admin(1).errors()).singleElement().satisfies(e -> {
            assertThat(e.errorCode()).isEqualTo("45000");
            assertThat(e.errorMessage()).contains("custom handler no", "refused by the test's handler");
        });
    }

    @Test
    void aHandlerClassThatCannotBeLoadedFailsConnect() throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.dmlhandler.x.table", "people");
        p.put("repl.dmlhandler.x.class", "io.jdbcrepl.it.NoSuchHandler");
        cluster = new Cluster(databases.nodes(Vendor.POSTGRESQL, "custombad", 2), p);
        assertThatThrownBy(() -> cluster.open(0).close()).isInstanceOf(SQLException.class)
                .hasMessageContaining("repl.dmlhandler.x.class=io.jdbcrepl.it.NoSuchHandler")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }
}
