package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.jdbcrepl.it.capture.locking.LockingLog.count;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 3, bounded memory on MariaDB: an UPDATE of 200,000 rows and a DELETE of as many, each
 * captured in one transaction by a JVM whose heap is capped at 32 MB (held whole, their locked rows
 * or returned rows alone would take several times that): the statements are run a page at a time.
 */
class BigStatementCaptureIT {

    /** -Dit.bigStatementRows=1000000 for the million rows of the issue (about a minute a statement). */
    private static final int ROWS = Integer.getInteger("it.bigStatementRows", 200_000);

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @Test
    void statementsChangingRowsByTheHundredThousandRunInA32MbHeap(@TempDir Path dir) throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "bigstmt");
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE big (id INT PRIMARY KEY, g INT NOT NULL, payload VARCHAR(100) NOT NULL)");
            s.execute("INSERT INTO big SELECT seq, seq % 2, REPEAT('x', 100) FROM seq_1_to_" + ROWS);
        }
        String url = db.replUrl(Map.of("repl.node", "n1"));
        try (Connection c = java.sql.DriverManager.getConnection(url, db.credentials())) {
            c.isValid(1); // the driver's tables, installed here rather than in the child
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-cp", String.join(File.pathSeparator, System.getProperty("repl.driverJar"),
                        location(org.mariadb.jdbc.Driver.class), location(BigStatement.class)),
                BigStatement.class.getName(), url, db.user(), db.password(),
                "UPDATE big SET payload = REPEAT('y', 100) WHERE g >= 0", "DELETE FROM big WHERE id > 10"));
        Path out = dir.resolve("child.log");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertThat(child.waitFor(10, TimeUnit.MINUTES)).as("the child ended").isTrue();
        } finally {
            child.destroyForcibly();
        }
        String output = Files.readString(out);
        System.out.print("big statements: " + output);
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("count " + ROWS + " in").contains("count " + (ROWS - 10) + " in");
        try (Connection raw = db.openRaw()) {
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_log WHERE command_type = 'UPDATE'")).isEqualTo(ROWS);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE command_type = 'UPDATE' AND JSON_VALUE(old_values, '$.payload') LIKE 'x%'"
                    + " AND JSON_VALUE(new_values, '$.payload') LIKE 'y%'")).isEqualTo(ROWS);
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_log WHERE command_type = 'DELETE'")).isEqualTo(ROWS - 10);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE command_type = 'DELETE'")).isEqualTo(ROWS - 10);
            assertThat(count(raw, "SELECT COUNT(DISTINCT tx_id) FROM repl_log")).isEqualTo(2);
            assertThat(count(raw, "SELECT COUNT(*) FROM big WHERE payload LIKE 'y%'")).isEqualTo(10);
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
