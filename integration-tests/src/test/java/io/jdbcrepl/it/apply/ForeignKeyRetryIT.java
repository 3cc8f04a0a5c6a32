package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.Vendor;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 5.2, the seed's departments/employees example on three nodes A=n1, B=n2, C=n3 (PostgreSQL,
 * MariaDB, and A and C PostgreSQL with B MariaDB):
 * a department inserted at A is applied at B, where an employee in it is inserted; C receives B's
 * change first. C's applier for B meets a foreign key conflict and retries it (repl.fk.retry)
 * until C's applier for A brings the department; with no department coming, the transaction goes
 * to the error queue once repl.fk.retry has passed.
 */
class ForeignKeyRetryIT extends ClusterTest {

    /** C applying from B only. */
    private Cluster fromB;

    // a table constraint: MariaDB ignores REFERENCES in a column definition
    private static final List<String> DDL = List.of("CREATE TABLE departments (department_id INT PRIMARY KEY, name VARCHAR(30))",
            "CREATE TABLE employees (employee_id INT PRIMARY KEY, department_id INT NOT NULL,"
                    + " FOREIGN KEY (department_id) REFERENCES departments (department_id))");

    /** Starts A and B applying; department 10 inserted at A reaches B, employee 1 inserted at B. */
    private void departmentAtAEmployeeAtB(List<Vendor> vendors, String fkRetry) throws Exception {
        cluster = new Cluster(databases.nodes("fk", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false"));
        cluster.ddl(v -> DDL);
        cluster.execute(0, "INSERT INTO departments VALUES (10, 'sales')");
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.count(1, "SELECT count(*) FROM departments")).isEqualTo(1);
        cluster.execute(1, "INSERT INTO employees VALUES (1, 10)");
        // C applies from B only: B's employee arrives, A's department cannot
        fromB = new Cluster(List.of(cluster.db(0), cluster.db(1), cluster.db(2)),
                Map.of("repl.apply", "false", "repl.peers", "n2", "repl.fk.retry", fkRetry));
        fromB.admin(2).startApply();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trios")
    void theEmployeeLandsOnceTheDepartmentArrives(List<Vendor> vendors) throws Exception {
        departmentAtAEmployeeAtB(vendors, "60s");
        ReplAdmin c = cluster.admin(2);
        awaitRetrying(fromB.admin(2));
        // a second server for C (another connection string), applying from A and B: its applier
        // for B stands by (the first holds the lock), its applier for A brings the department
        new Cluster(List.of(cluster.db(0), cluster.db(1), cluster.db(2)), Map.of("repl.apply", "false",
                "repl.fk.retry", "60s", "connectTimeout", "30000")).admin(2).startApply();
        c.waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(2, "departments", "department_id")).containsExactly("department_id=10, name=sales");
        assertThat(cluster.rows(2, "employees", "employee_id")).containsExactly("employee_id=1, department_id=10");
        assertThat(cluster.count(2, "SELECT count(*) FROM repl_error")).isZero();
        assertThat(cluster.count(2, "SELECT count(*) FROM repl_conflict")).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trios")
    void withoutTheParentTheTransactionIsQueuedAfterTheRetry(List<Vendor> vendors) throws Exception {
        departmentAtAEmployeeAtB(vendors, "2s");
        long started = System.nanoTime();
        fromB.admin(2).waitForPeers(Cluster.WAIT);
        assertThat((System.nanoTime() - started) / 1_000_000).as("waited for repl.fk.retry").isGreaterThanOrEqualTo(1500);
        assertThat(cluster.rows(2, "employees", "employee_id")).isEmpty();
        assertThat(cluster.count(2, "SELECT count(*) FROM repl_error WHERE error_code = 'FOREIGN_KEY'"
                + " AND source_database = 'n2'")).isEqualTo(1);
        assertThat(cluster.count(2, "SELECT count(*) FROM repl_conflict WHERE conflict_kind = 'FOREIGN_KEY'")).isEqualTo(1);
    }

    /** Until C's applier for B has read B's transaction without applying it: it is retrying. */
    private static void awaitRetrying(ReplAdmin c) throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            PeerStatus b = c.status().peers().stream().filter(p -> p.peer().equals("n2")).findFirst().orElseThrow();
            if (b.positionRead() != null && !Objects.equals(b.positionRead(), b.positionApplied())) return;
            Thread.sleep(20);
        }
        throw new AssertionError("C's applier for B never started on B's transaction");
    }
}
