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
 * or returned rows alone would take several times that): the UPDATE runs a page at a time, the
 * DELETE whole with its returned rows streamed.
 */
class BigStatementCaptureIT {

    /** -Dit.bigStatementRows=1000000 for the million rows of the issue (about a minute a statement). */
    private static final int ROWS = Integer.getInteger("it.bigStatementRows", 200_000);

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @Test
    void statementsChangingRowsByTheHundredThousandRunInA32MbHeap(@TempDir Path dir) throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "bigstmt");
        String url = bigTable(db, ROWS);
        String output = runInA32MbHeap(dir, org.mariadb.jdbc.Driver.class, url, db,
                "UPDATE big SET payload = REPEAT('y', 100) WHERE g >= 0", "DELETE FROM big WHERE id > 10");
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

    /**
     * The UPDATEs that are not paged by key, of 300,000 rows each (their locked rows held in a
     * temporary table on the server): a key update that must go in descending order, a subquery
     * in WHERE, ORDER BY with LIMIT; then a DELETE with both (one statement, its rows streamed).
     */
    @Test
    void unpagedUpdatesOfHundredsOfThousandsOfRowsRunInA32MbHeapOnMariaDb(@TempDir Path dir) throws Exception {
        int rows = SPILLED_ROWS;
        TestDatabase db = databases.create(Vendor.MARIADB, "bigspill");
        String url = bigTable(db, rows);
        String output = runInA32MbHeap(dir, org.mariadb.jdbc.Driver.class, url, db,
                "UPDATE big SET id = id + 1 ORDER BY id DESC",
                "UPDATE big SET payload = REPEAT('s', 100) WHERE g >= (SELECT MIN(g) FROM big b2)",
                "UPDATE big SET payload = REPEAT('o', 100) ORDER BY g, id LIMIT " + (rows - 10),
                "DELETE FROM big WHERE g >= (SELECT MIN(g) FROM big b2) ORDER BY id DESC LIMIT " + (rows - 20));
        assertThat(output).contains("count " + rows + " in").contains("count " + (rows - 10) + " in")
                .contains("count " + (rows - 20) + " in");
        try (Connection raw = db.openRaw()) {
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_log")).isEqualTo(4L * rows - 30);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE command_type = 'DELETE' AND JSON_VALUE(old_values, '$.id') > 21")).isEqualTo(rows - 20);
            assertThat(count(raw, "SELECT COUNT(*) FROM big")).isEqualTo(20);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE JSON_VALUE(new_values, '$.id') = JSON_VALUE(old_values, '$.id') + 1")).isEqualTo(rows);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE JSON_VALUE(new_values, '$.payload') LIKE 's%'")).isEqualTo(rows);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE JSON_VALUE(new_values, '$.payload') LIKE 'o%'")).isEqualTo(rows - 10);
            assertThat(count(raw, "SELECT COUNT(*) FROM big WHERE payload LIKE 'o%' AND id BETWEEN 2 AND 21")).isEqualTo(20);
        }
    }

    /**
     * INSERT … SELECT of 300,000 rows, plain and with ON DUPLICATE KEY UPDATE changing every row:
     * the rows the statement returns are read as MariaDB sends them, their LCRs set aside on disk
     * until the result ends (the connection cannot write them before).
     */
    @Test
    void insertSelectsOfHundredsOfThousandsOfRowsRunInA32MbHeapOnMariaDb(@TempDir Path dir) throws Exception {
        int rows = SPILLED_ROWS;
        TestDatabase db = databases.create(Vendor.MARIADB, "biginsert");
        String url = bigTable(db, rows);
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE big2 LIKE big");
        }
        String output = runInA32MbHeap(dir, org.mariadb.jdbc.Driver.class, url, db,
                "INSERT INTO big2 SELECT * FROM big",
                "INSERT INTO big2 SELECT id, g, REPEAT('u', 100) FROM big ON DUPLICATE KEY UPDATE payload = VALUES(payload)");
        assertThat(output).contains("count " + rows + " in").contains("count " + 2L * rows + " in");
        try (Connection raw = db.openRaw()) {
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(new_values, '$.id')) FROM repl_log"
                    + " WHERE command_type = 'INSERT' AND JSON_VALUE(new_values, '$.payload') LIKE 'x%'")).isEqualTo(rows);
            assertThat(count(raw, "SELECT COUNT(DISTINCT JSON_VALUE(old_values, '$.id')) FROM repl_log"
                    + " WHERE command_type = 'UPDATE' AND JSON_VALUE(old_values, '$.payload') LIKE 'x%'"
                    + " AND JSON_VALUE(new_values, '$.payload') LIKE 'u%'")).isEqualTo(rows);
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_log")).isEqualTo(2L * rows);
            assertThat(count(raw, "SELECT COUNT(*) FROM big2 WHERE payload LIKE 'u%'")).isEqualTo(rows);
        }
    }

    /** 300,000 rows (held whole, their locked rows would take several times the heap). */
    private static final int SPILLED_ROWS = Integer.getInteger("it.spilledStatementRows", 300_000);

    /** Table {@code big} of {@code rows} rows (id, g = id % 2, payload); returns the node's URL. */
    private static String bigTable(TestDatabase db, int rows) throws Exception {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE big (id INT PRIMARY KEY, g INT NOT NULL, payload VARCHAR(100) NOT NULL)");
            s.execute("INSERT INTO big SELECT seq, seq % 2, REPEAT('x', 100) FROM seq_1_to_" + rows);
        }
        String url = db.replUrl(Map.of("repl.node", "n1"));
        try (Connection c = java.sql.DriverManager.getConnection(url, db.credentials())) {
            c.isValid(1); // the driver's tables, installed here rather than in the child
        }
        return url;
    }

    /** Runs the statements through {@link BigStatement} in a JVM capped at 32 MB; returns its output. */
    private static String runInA32MbHeap(Path dir, Class<?> vendorDriver, String url, TestDatabase db, String... statements)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-cp", String.join(File.pathSeparator, System.getProperty("repl.driverJar"),
                        location(vendorDriver), location(BigStatement.class)),
                BigStatement.class.getName(), url, db.user(), db.password()));
        command.addAll(List.of(statements));
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
        return output;
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
