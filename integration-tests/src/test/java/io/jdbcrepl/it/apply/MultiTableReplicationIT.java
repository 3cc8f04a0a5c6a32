package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB's multi-table UPDATE and DELETE (SPEC 8.3) on one node, applied by a peer (MariaDB, or
 * PostgreSQL, which has no such statements): both tables end identical on both nodes, rolled-back
 * work nowhere.
 */
class MultiTableReplicationIT extends ClusterTest {

    @ParameterizedTest(name = "MariaDB to {0}")
    @EnumSource(value = Vendor.class, names = {"MARIADB", "POSTGRESQL"})
    void thePeerAppliesWhatTheJoinChanged(Vendor peer) throws Exception {
        cluster = new Cluster(databases.nodes("multitable", Vendor.MARIADB, peer), Map.of());
        cluster.ddl(v -> List.of(
                "CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, total INT NOT NULL)",
                "CREATE TABLE emp (id INT PRIMARY KEY, dept INT NOT NULL, salary DECIMAL(10,2))",
                "INSERT INTO dept VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0)",
                "INSERT INTO emp VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 2, 40), (5, 9, 50), (6, 3, 60)"));
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary = e.salary * 2, d.total = d.total + 1"
                    + " WHERE d.name = 'a'");
            try (PreparedStatement ps = c.prepareStatement("UPDATE emp, dept SET emp.salary = emp.salary + ?,"
                    + " dept.name = CONCAT(dept.name, ?) WHERE emp.dept = dept.id AND dept.id = ?")) {
                ps.setInt(1, 1);
                ps.setString(2, "+");
                ps.setInt(3, 3);
                ps.executeUpdate();
            }
            c.setAutoCommit(false);
            s.executeUpdate("DELETE emp, dept FROM emp JOIN dept ON dept.id = emp.dept WHERE dept.id = 3");
            c.rollback();
            s.executeUpdate("DELETE emp, dept FROM emp JOIN dept ON dept.id = emp.dept WHERE dept.name = 'b'");
            s.executeUpdate("DELETE FROM emp USING emp LEFT JOIN dept ON dept.id = emp.dept WHERE dept.id IS NULL");
            c.commit();
        }
        assertThat(cluster.rows(0, "emp", "id")).containsExactly("id=1, dept=1, salary=20", "id=2, dept=1, salary=40",
                "id=6, dept=3, salary=61");
        assertThat(cluster.rows(0, "dept", "id")).containsExactly("id=1, name=a, total=1", "id=3, name=c+, total=0");
        cluster.waitForAll();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("error queue of the peer").isZero();
        for (String table : List.of("emp", "dept")) {
            assertThat(cluster.verify(table).differences()).as(table).isEmpty();
            assertThat(cluster.rows(1, table, "id")).as(table).isEqualTo(cluster.rows(0, table, "id"));
        }
    }
}
