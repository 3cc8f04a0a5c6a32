package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.Vendor;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DDL made past the driver is not replicated: each node adds the column itself, here past the
 * driver (a migration tool on a plain connection), after both the capture side and the applier had
 * read the table's metadata. The next changes naming the column are captured with it and applied with it.
 */
class SchemaChangeApplyIT extends ClusterTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void aColumnAddedOnEveryNodeReplicates(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("ddl2", vendors.get(0), vendors.get(1)));
        cluster.ddl(v -> List.of("CREATE TABLE acc (id INT PRIMARY KEY, n INT)"));
        cluster.execute(0, "INSERT INTO acc (id, n) VALUES (1, 1)");
        cluster.waitForAll();
        assertThat(cluster.rows(1, "acc", "id")).hasSize(1);

        cluster.ddl(v -> List.of("ALTER TABLE acc ADD COLUMN x INT"));
        cluster.execute(0, "INSERT INTO acc (id, n, x) VALUES (2, 2, 22)");
        cluster.execute(0, "UPDATE acc SET x = 5 WHERE id = 1");
        cluster.waitForAll();

        assertThat(cluster.rows(1, "acc", "id")).containsExactlyElementsOf(cluster.rows(0, "acc", "id"));
        assertThat(cluster.count(1, "SELECT x FROM acc WHERE id = 2")).isEqualTo(22);
        assertThat(cluster.count(1, "SELECT x FROM acc WHERE id = 1")).isEqualTo(5);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("error queue").isZero();
    }
}
