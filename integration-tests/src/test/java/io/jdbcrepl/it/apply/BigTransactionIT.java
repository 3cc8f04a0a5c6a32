package io.jdbcrepl.it.apply;

import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4: a transaction of 100,000 rows (about 30 MB of LCRs) replicates through an applier whose
 * heap is capped at 32 MB: its LCRs are streamed, never held whole.
 */
class BigTransactionIT {

    private static final int ROWS = 100_000;

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private Process child;

    @AfterEach
    void killChild() throws InterruptedException {
        if (child != null) {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    @Test
    void aHundredThousandRowTransactionReplicatesWithBoundedMemory(@TempDir Path dir) throws Exception {
        List<TestDatabase> dbs = databases.nodes(Vendor.POSTGRESQL, "bigtx", 2);
        TestDatabase source = dbs.get(0);
        TestDatabase dest = dbs.get(1);
        for (TestDatabase db : dbs) {
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE big (id INTEGER PRIMARY KEY, payload VARCHAR(300) NOT NULL)");
            }
        }
        try (Connection c = DriverManager.getConnection(source.replUrl(Map.of("repl.node", "n1")), source.credentials());
             Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertThat(s.executeUpdate("INSERT INTO big SELECT g, repeat(md5(g::text), 6) FROM generate_series(1, " + ROWS
                    + ") g")).isEqualTo(ROWS);
            c.commit();
        }
        Map<String, String> n2 = new LinkedHashMap<>();
        n2.put("repl.node", "n2");
        n2.put("repl.peers", "n1");
        n2.putAll(source.asPeer("n1"));
        String childUrl = dest.replUrl(n2);
        n2.put("repl.apply", "false"); // this JVM only waits and looks
        Path log = dir.resolve("apply.log");
        child = ApplierProcess.start(childUrl, dest, log, "32m");
        try (Connection c = DriverManager.getConnection(dest.replUrl(n2), dest.credentials())) {
            c.unwrap(ReplAdmin.class).waitForPeers(java.time.Duration.ofSeconds(120));
        }
        assertThat(child.isAlive()).as("the applier is still running; its output: " + Files.readString(log)).isTrue();
        assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError");
        Cluster view = new Cluster(dbs);
        assertThat(view.count(1, "SELECT count(*) FROM big")).isEqualTo(ROWS);
        assertThat(view.count(1, "SELECT count(*) FROM big b WHERE payload = repeat(md5(id::text), 6)")).isEqualTo(ROWS);
        assertThat(view.count(1, "SELECT applied_transactions FROM repl_progress")).isEqualTo(1);
    }
}
