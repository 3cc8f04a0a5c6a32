package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.Vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nodes writing concurrently, each on rows of its own, through HikariCP pools; after
 * waitForPeers on every node every table is identical everywhere, nothing went to an error queue,
 * and no node captured a change it applied (SPEC 4.4).
 */
class ReplicationIT extends ClusterTest {

    static Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), Arguments.of(Vendor.MARIADB, Vendor.MARIADB),
                Arguments.of(Vendor.POSTGRESQL, Vendor.MARIADB), Arguments.of(Vendor.H2, Vendor.POSTGRESQL));
    }

    @ParameterizedTest(name = "{0} and {1}")
    @MethodSource("pairs")
    void twoNodesConverge(Vendor first, Vendor second) throws Exception {
        converge(new Cluster(databases.nodes("repl2", first, second)));
    }

    @Test
    void threePostgresNodesConverge() throws Exception {
        converge(new Cluster(databases.nodes(Vendor.POSTGRESQL, "repl3", 3)));
    }

    private void converge(Cluster c) throws Exception {
        cluster = c;
        c.ddl(Workload::itemDdl);
        List<HikariDataSource> pools = new ArrayList<>();
        ExecutorService nodes = Executors.newFixedThreadPool(c.size());
        try {
            for (int i = 0; i < c.size(); i++) pools.add(c.pool(i, 3));
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < c.size(); i++) {
                int node = i;
                running.add(nodes.submit(() -> {
                    Workload.run(pools.get(node), node, 3, 20);
                    return null;
                }));
            }
            for (Future<?> f : running) f.get();
            c.waitForAll();
            List<String> expected = c.rows(0, "item", "id");
            assertThat(expected).hasSizeGreaterThan(c.size() * 3 * 20);
            for (int i = 1; i < c.size(); i++) {
                assertThat(c.rows(i, "item", "id")).as("item at " + Cluster.name(i)).containsExactlyElementsOf(expected);
            }
            for (int i = 0; i < c.size(); i++) {
                assertThat(c.count(i, "SELECT count(*) FROM repl_error")).as("error queue of " + Cluster.name(i)).isZero();
                assertThat(c.count(i, "SELECT count(*) FROM repl_log WHERE source_node <> '" + Cluster.name(i) + "'"))
                        .as("LCRs captured from applied changes at " + Cluster.name(i)).isZero();
                // every source transaction applied once: 20 per writer, 3 writers per peer
                assertThat(c.count(i, "SELECT sum(applied_transactions) FROM repl_progress"))
                        .as("transactions applied at " + Cluster.name(i)).isEqualTo((c.size() - 1) * 3 * 20L);
            }
        } finally {
            nodes.shutdownNow();
            pools.forEach(HikariDataSource::close);
        }
    }
}
