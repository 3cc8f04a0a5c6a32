package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The apply benchmarks' shared parts: the rows of {@code item} they write, and the destination node,
 * started on a backlog and timed until it has drained it.
 */
final class ApplyNodes {

    private ApplyNodes() {
    }

    /**
     * Starts node {@code name} on {@code dest} with peer n1 at {@code source} (and the
     * {@code extra} settings, {@code repl.apply.batch} from {@code bench.batch}), waits until it
     * has applied everything n1 logged, shuts the inbound server down; the seconds that took.
     */
    static double drain(TestDatabase dest, String name, TestDatabase source, Map<String, String> extra) throws Exception {
        Map<String, String> p = new LinkedHashMap<>(extra);
        p.put("repl.node", name);
        p.put("repl.peers", "n1");
        p.putAll(source.asPeer("n1"));
        p.put("repl.apply.batch", System.getProperty("bench.batch", "500"));
        long start = System.nanoTime();
        try (Connection c = DriverManager.getConnection(dest.replUrl(p), dest.credentials())) {
            c.unwrap(ReplAdmin.class).waitForPeers(Duration.ofHours(1));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Repl.shutdown();
        return seconds;
    }

    /**
     * Binds item rows 1..{@code rows} to {@code ps} (its first three parameters: id, name, amount)
     * and runs them in batches of {@code perCommit}, committing each batch on {@code c}.
     */
    static void writeItems(Connection c, PreparedStatement ps, int rows, int perCommit) throws SQLException {
        c.setAutoCommit(false);
        for (int id = 1; id <= rows; id++) {
            ps.setLong(1, id);
            ps.setString(2, "item " + id);
            ps.setBigDecimal(3, java.math.BigDecimal.valueOf(id, 2));
            ps.addBatch();
            if (id % perCommit == 0 || id == rows) {
                ps.executeBatch();
                c.commit();
            }
        }
    }
}
