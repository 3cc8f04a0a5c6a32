package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.DriverTables;
import io.jdbcrepl.it.support.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.locking.LockingLog.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * H2 file databases, INSERTs and DELETEs whose delta table ({@code FINAL TABLE}/{@code OLD TABLE})
 * holds more rows than H2's {@code MAX_MEMORY_ROWS} (by default 40,000 per GB of heap; 500 here):
 * H2 2.4.240 buffers such a result to disk and never writes its last rows there
 * ({@code DataChangeDeltaTable.getResult} does not call {@code LocalResult.done()}), so the query
 * returns fewer rows than the statement changed (an in-memory database keeps them all in the heap).
 * The driver's DELETEs do not use one (a locking read, then DELETEs by key): each gives the raw
 * driver's count and table and one LCR per deleted row. An INSERT has no other way to return its
 * rows as stored: one that returns more than MAX_MEMORY_ROWS fails, changing and logging nothing.
 */
class H2FileDeltaTableCaptureIT {

    private static final int ROWS = 5000;
    private static final String SETTINGS = ";MAX_MEMORY_ROWS=500";

    @ParameterizedTest
    @ValueSource(strings = {
            "DELETE FROM big WHERE id > 10",
            "DELETE FROM big WHERE id >= (SELECT MIN(id) FROM big b2)",
            "DELETE FROM big WHERE id > 10 LIMIT 4980",
            "DELETE FROM big b WHERE b.g = 1 OR b.id < 100"})
    void deltaTablesLargerThanMaxMemoryRowsAreCapturedWhole(String sql, @TempDir Path dir) throws Exception {
        String captured = bigTable(dir.resolve("repl"));
        String reference = bigTable(dir.resolve("raw"));
        long expected;
        try (Connection raw = DriverManager.getConnection(reference, "sa", ""); Statement s = raw.createStatement()) {
            expected = s.executeLargeUpdate(sql);
        }
        String repl = TestDatabase.withQuery("jdbc:repl:" + captured.substring("jdbc:".length()), Map.of("repl.node", "n1"));
        try (Connection c = DriverManager.getConnection(repl, "sa", ""); Statement s = c.createStatement()) {
            assertThat(s.executeLargeUpdate(sql)).as(sql).isEqualTo(expected);
        }
        String target = sql.startsWith("INSERT") ? "big2" : "big";
        try (Connection c = DriverManager.getConnection(captured, "sa", "");
                Connection raw = DriverManager.getConnection(reference, "sa", "")) {
            assertThat(ids(c, "SELECT id FROM " + target)).isEqualTo(ids(raw, "SELECT id FROM " + target));
            assertThat(count(c, "SELECT COUNT(*) FROM repl_log")).isEqualTo(expected);
            String values = sql.startsWith("INSERT") ? "new_values" : "old_values";
            // the changed rows' keys, from the LCRs: exactly those the raw statement changed
            List<Integer> logged = ids(c, DriverTables.qualify(c, "SELECT CAST(REGEXP_SUBSTR(" + values
                    + ", '\\{\"ID\":([0-9]+),', 1, 1, '', 1) AS INT) FROM repl_log"));
            List<Integer> changed = sql.startsWith("INSERT") ? ids(raw, "SELECT id FROM big2")
                    : ids(raw, "SELECT X FROM SYSTEM_RANGE(1, " + ROWS + ") WHERE X NOT IN (SELECT id FROM big)");
            assertThat(logged).isEqualTo(changed);
        }
    }

    @Test
    void anInsertReturningMoreThanMaxMemoryRowsFailsAndChangesNothing(@TempDir Path dir) throws Exception {
        String repl = TestDatabase.withQuery("jdbc:repl:" + bigTable(dir).substring("jdbc:".length()), Map.of("repl.node", "n1"));
        try (Connection c = DriverManager.getConnection(repl, "sa", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO big2 SELECT * FROM big"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("MAX_MEMORY_ROWS (500)")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0AR01"));
            c.setAutoCommit(false);
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO big2 SELECT * FROM big")).isInstanceOf(SQLException.class);
            assertThat(s.executeUpdate("INSERT INTO big2 SELECT * FROM big WHERE id <= 500")).isEqualTo(500);
            c.commit();
        }
        try (Connection c = DriverManager.getConnection(bigTableUrl(dir), "sa", "")) {
            assertThat(count(c, "SELECT COUNT(*) FROM big2")).isEqualTo(500);
            assertThat(count(c, "SELECT COUNT(*) FROM repl_log")).isEqualTo(500);
        }
    }

    private static String bigTableUrl(Path dir) {
        return "jdbc:h2:file:" + dir.resolve("big") + SETTINGS;
    }

    /** A file database with table {@code big} of {@link #ROWS} rows and an empty {@code big2}; returns its URL. */
    private static String bigTable(Path dir) throws SQLException {
        String url = bigTableUrl(dir);
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            for (String t : List.of("big", "big2")) {
                s.execute("CREATE TABLE " + t + " (id INT PRIMARY KEY, g INT NOT NULL, payload VARCHAR(100) NOT NULL)");
            }
            s.execute("INSERT INTO big SELECT X, MOD(X, 2), REPEAT('x', 100) FROM SYSTEM_RANGE(1, " + ROWS + ")");
        }
        return url;
    }

    /** The first column's values, in order. */
    private static List<Integer> ids(Connection c, String sql) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql + " ORDER BY 1")) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }
}
