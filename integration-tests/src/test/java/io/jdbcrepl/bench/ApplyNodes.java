package io.jdbcrepl.bench;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.admin.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The destination node of the apply benchmarks: started on a backlog, timed until it has drained it. */
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
}
