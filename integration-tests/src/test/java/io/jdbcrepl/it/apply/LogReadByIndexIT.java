package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.Vendor;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL: the applier reads a large, never analysed source log by its index, not by scanning
 * it whole at every batch (with autovacuum off, as on the test machine, the log has no statistics;
 * a one-sided range on tx_id was then planned as a sequential scan and the lag grew with the log).
 */
class LogReadByIndexIT extends ClusterTest {

    private static final int BACKLOG = 20_000;
    private static final int SMALL = 40;

    @Test
    void smallBatchesAfterALargeLogDoNotScanTheLog() throws Exception {
        // n1 applies nothing, so nothing purges its log: the log keeps its 20,000 consumed rows
        cluster = new Cluster(databases.nodes("byindex", Vendor.POSTGRESQL, Vendor.POSTGRESQL))
                .with(0, Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE big (id INT PRIMARY KEY, v INT)"));
        cluster.execute(0, "INSERT INTO big SELECT g, 0 FROM generate_series(1, " + BACKLOG + ") g");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        long before = seqTuplesRead();
        for (int i = 1; i <= SMALL; i++) {
            cluster.execute(0, "UPDATE big SET v = " + i + " WHERE id = " + i);
            cluster.admin(1).waitForPeers(Cluster.WAIT); // one batch each (n1 applies nothing: wait at n2 only)
        }
        assertThat(cluster.count(1, "SELECT count(*) FROM big WHERE v > 0")).isEqualTo(SMALL);
        // statistics reach the view from each backend within about a second of its last transaction
        long read = 0;
        for (int attempt = 0; attempt < 12; attempt++) {
            Thread.sleep(500);
            read = seqTuplesRead() - before;
        }
        assertThat(read).as("rows of n1's repl_log read by sequential scans during %d small batches", SMALL)
                .isLessThan(5L * BACKLOG);
    }

    private long seqTuplesRead() throws Exception {
        return cluster.count(0, "SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables WHERE relname = 'repl_log'");
    }
}
