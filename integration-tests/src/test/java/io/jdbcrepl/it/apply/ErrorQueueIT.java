package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.Vendor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 5.5's error queue operations on two nodes (PostgreSQL, MariaDB, PostgreSQL ⇄ MariaDB): employees 200 and 201 updated on both
 * nodes (two transactions each) before either applies, so each node queues the other's two
 * transactions. Retry applies an entry once its cause is fixed and removes it; retry of all stops
 * at the first failure in source position order, keeping the entry with its new error; delete
 * removes an entry without applying it. Through the admin API and the CLI.
 */
class ErrorQueueIT extends ClusterTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void listShowRetryAndDelete(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("errq", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "INSERT INTO employees VALUES (200, 4400), (201, 4400)"));
        cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 200");
        cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 201");
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 200");
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 201");
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        ReplAdmin n1 = cluster.admin(0);
        List<ErrorEntry> queued = n1.errors();
        assertThat(queued).hasSize(2).allSatisfy(e -> {
            assertThat(e.sourceDatabase()).isEqualTo("n2");
            assertThat(e.errorCode()).isEqualTo("ROW_EXISTS");
            assertThat(e.lcrs()).isEmpty();
        });
        assertThat(queued.get(0).sourcePosition()).isLessThan(queued.get(1).sourcePosition());
        ErrorEntry first = n1.error(queued.get(0).id());
        assertThat(first.lcrs()).singleElement().satisfies(lcr -> assertThat(lcr.newValues().valuesJson()).contains("5000"));
        assertThat(first.lcrs().get(0).oldValues().valuesJson()).contains("200");

        // retry of all stops at the first (200 still conflicts), leaving the second untried
        raw(0, "UPDATE employees SET salary = 4400 WHERE employee_id = 201");
        assertThatThrownBy(n1::retryAllErrors).isInstanceOf(SQLException.class)
                .hasMessageContaining("Error queue entry " + first.id()).hasMessageContaining("salary");
        assertThat(n1.errors()).extracting(ErrorEntry::id).containsExactly(first.id(), queued.get(1).id());
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 201")).isEqualTo(4400);

        // one entry, cause fixed: applied and removed
        assertThat(cli("errors", "retry", "--url", cluster.url(0), String.valueOf(queued.get(1).id()))).isZero();
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 201")).isEqualTo(5000);
        assertThat(n1.errors()).extracting(ErrorEntry::id).containsExactly(first.id());

        // the cause of the first fixed too: retry --all empties the queue
        raw(0, "UPDATE employees SET salary = 4400 WHERE employee_id = 200");
        assertThat(cli("errors", "retry", "--url", cluster.url(0), "--all")).isZero();
        assertThat(n1.errors()).isEmpty();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_error_lcr")).isZero();
        assertThat(cluster.count(0, "SELECT salary FROM employees WHERE employee_id = 200")).isEqualTo(5000);

        // delete at n2: the entries go, the rows stay
        ReplAdmin n2 = cluster.admin(1);
        List<ErrorEntry> atN2 = n2.errors();
        assertThat(atN2).hasSize(2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(Main.run(new String[] {"errors", "list", "--url", cluster.url(1), "--json"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"id\":" + atN2.get(0).id(), "\"errorCode\":\"ROW_EXISTS\"");
        assertThat(cli("errors", "delete", "--url", cluster.url(1), String.valueOf(atN2.get(0).id()))).isZero();
        n2.deleteError(atN2.get(1).id());
        assertThat(n2.errors()).isEmpty();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error_lcr")).isZero();
        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly("employee_id=200, salary=5000",
                "employee_id=201, salary=5000");
        assertThatThrownBy(() -> n2.deleteError(atN2.get(0).id())).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("02000"));
    }

    /**
     * Two retries of one entry at once apply it once (SPEC 8.8): a DELTA handler would add the
     * increment a second time if both got through. Each entry is an increment the destination's
     * CHECK refused; the CHECK is dropped, then every entry is retried by two threads at once.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void concurrentRetriesOfOneEntryApplyItOnce(List<Vendor> vendors) throws Exception {
        int entries = 6;
        cluster = new Cluster(databases.nodes("errq2", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false",
                "repl.handler.hits_delta.table", "counters", "repl.handler.hits_delta.type", "DELTA",
                "repl.handler.hits_delta.columns", "hits"));
        cluster.ddl(v -> List.of("CREATE TABLE counters (id INT PRIMARY KEY, hits INT NOT NULL)"));
        raw(1, "ALTER TABLE counters ADD CONSTRAINT hits_small CHECK (hits < 1)");
        for (int id = 1; id <= entries; id++) {
            raw(0, "INSERT INTO counters VALUES (" + id + ", 0)");
            raw(1, "INSERT INTO counters VALUES (" + id + ", 0)");
            cluster.execute(0, "UPDATE counters SET hits = hits + 1 WHERE id = " + id);
        }
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();
        ReplAdmin n2 = cluster.admin(1);
        List<ErrorEntry> queued = n2.errors();
        assertThat(queued).hasSize(entries);
        raw(1, "ALTER TABLE counters DROP CONSTRAINT hits_small");
        // a local increment, so that each retry meets an update conflict that DELTA resolves
        raw(1, "UPDATE counters SET hits = hits + 10");

        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (ErrorEntry entry : queued) {
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                java.util.concurrent.Callable<String> retry = () -> {
                    try (Connection c = cluster.open(1)) {
                        ReplAdmin admin = c.unwrap(ReplAdmin.class);
                        start.await();
                        admin.retryError(entry.id());
                        return "applied";
                    } catch (SQLException e) {
                        return e.getSQLState();
                    }
                };
                List<String> outcomes = List.of(pool.submit(retry), pool.submit(retry)).stream().map(f -> {
                    try {
                        return f.get(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }).sorted().toList();
                assertThat(outcomes).as("entry %d", entry.id()).containsExactly("02000", "applied");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(n2.errors()).isEmpty();
        assertThat(cluster.count(1, "SELECT count(*) FROM counters WHERE hits = 11")).isEqualTo(entries);
    }

    private int cli(String... args) {
        return Main.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
    }

    private void raw(int node, String sql) throws SQLException {
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }
}
