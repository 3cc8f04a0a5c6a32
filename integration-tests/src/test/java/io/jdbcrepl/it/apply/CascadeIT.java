package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cascading foreign keys (issue 20): the driver captures the statement's own rows, the parent's
 * DELETE, not the child rows the database's cascade deletes. On the peer the cascade happens again
 * when the parent's LCR applies, by the peer's own constraint; a peer whose constraint restricts
 * instead refuses the delete: after the foreign key retry the transaction goes to its error queue,
 * and a retry applies it once the peer's children are dealt with.
 */
class CascadeIT extends ClusterTest {

    /** parent 1 with children 10 and 11, parent 2 with child 20, on both nodes; B's foreign key says {@code bOnDelete}. */
    private void parentsAndChildren(List<Vendor> vendors, String bOnDelete) throws SQLException {
        cluster = new Cluster(databases.nodes("cascade", vendors.toArray(Vendor[]::new)),
                Map.of("repl.apply", "false", "repl.fk.retry", "1s"));
        for (int i = 0; i < 2; i++) {
            try (Connection c = cluster.db(i).openRaw(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(20))");
                // a table constraint: MariaDB ignores REFERENCES in a column definition
                s.execute("CREATE TABLE child (id INT PRIMARY KEY, parent_id INT NOT NULL, FOREIGN KEY (parent_id)"
                        + " REFERENCES parent (id) ON DELETE " + (i == 0 ? "CASCADE" : bOnDelete) + ")");
                s.execute("INSERT INTO parent VALUES (1, 'a'), (2, 'b')");
                s.execute("INSERT INTO child VALUES (10, 1), (11, 1), (20, 2)");
            }
            cluster.open(i).close();
        }
        cluster.execute(0, "DELETE FROM parent WHERE id = 1");
        assertThat(cluster.rows(0, "child", "id")).as("A's cascade").containsExactly("id=20, parent_id=2");
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).as("the parent's DELETE only").isEqualTo(1);
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void thePeersOwnCascadeDeletesTheChildren(List<Vendor> vendors) throws Exception {
        parentsAndChildren(vendors, "CASCADE");
        assertThat(cluster.rows(1, "parent", "id")).containsExactly("id=2, name=b");
        assertThat(cluster.rows(1, "child", "id")).containsExactly("id=20, parent_id=2");
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void aPeerThatRestrictsQueuesTheDelete(List<Vendor> vendors) throws Exception {
        parentsAndChildren(vendors, "RESTRICT");
        assertThat(cluster.rows(1, "parent", "id")).as("B keeps the parent").containsExactly("id=1, name=a", "id=2, name=b");
        assertThat(cluster.rows(1, "child", "id")).containsExactly("id=10, parent_id=1", "id=11, parent_id=1", "id=20, parent_id=2");
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error WHERE error_code = 'FOREIGN_KEY'"
                + " AND source_database = 'n1'")).as("queued after repl.fk.retry").isEqualTo(1);
        // the user deals with B's children, then retries the entry: the parent goes
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM child WHERE parent_id = 1");
        }
        assertThat(cluster.admin(1).retryAllErrors()).isEqualTo(1);
        assertThat(cluster.rows(1, "parent", "id")).containsExactly("id=2, name=b");
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
    }
}
