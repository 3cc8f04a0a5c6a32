package io.jdbcrepl.capture.locking;

import io.jdbcrepl.lcr.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The LCRs of a streamed result: set aside while it is read, written after it, in order and intact. */
class ChangeLogWriterTest {

    private static final LogRowShape INSERT = new LogRowShape(CommandType.INSERT, "S", "T", "{\"id\":\"INTEGER\"}", null);
    private static final LogRowShape UPDATE = new LogRowShape(CommandType.UPDATE, "S", "T", "{\"id\":\"INTEGER\"}", "[\"id\"]");

    private Connection connection;

    @TempDir
    Path directory;

    @BeforeEach
    void open() throws SQLException {
        ChangeLogWriter.overflowDirectory = directory;
        connection = DriverManager.getConnection("jdbc:h2:mem:");
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE repl_log (position BIGINT AUTO_INCREMENT PRIMARY KEY, tx_id VARCHAR(64), source_node"
                    + " VARCHAR(64), command_type VARCHAR(10), schema_name VARCHAR(64), table_name VARCHAR(64), old_values"
                    + " CLOB, new_values CLOB, column_types CLOB, change_vector CLOB)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        ChangeLogWriter.overflowDirectory = null;
        connection.close();
    }

    @Test
    void lcrsAddedWhileReadingAreWrittenAfterInTheOrderTheyCame() throws Exception {
        ChangeLogWriter log = new ChangeLogWriter(connection, "repl_log", "tx1", "n1", INSERT);
        List<String[]> expected = new ArrayList<>();
        String large = "é€😀".repeat(30_000); // over 64 KB of UTF-8
        log.beginReading();
        for (int i = 0; i < 3 * ChangeLogWriter.ROWS_PER_INSERT + 50; i++) {
            String newJson = i == 7 ? large : "{\"id\":" + i + "}";
            if (i % 3 == 0) {
                log.add(UPDATE, "{\"id\":" + (i - 1) + "}", newJson);
                expected.add(new String[] {"UPDATE", "{\"id\":" + (i - 1) + "}", newJson});
            } else {
                log.add(null, newJson);
                expected.add(new String[] {"INSERT", null, newJson});
            }
        }
        assertThat(rows()).as("nothing written while the result is read").isEmpty();
        assertThat(overflowFiles()).hasSize(1);
        log.endReading();
        assertThat(rows()).hasSize(3 * ChangeLogWriter.ROWS_PER_INSERT);
        assertThat(overflowFiles()).isEmpty();
        log.flush();
        List<String[]> written = rows();
        assertThat(written).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) assertThat(written.get(i)).as("LCR " + i).containsExactly(expected.get(i));
    }

    @Test
    void closingBeforeTheResultEndsDeletesWhatWasSetAside() throws Exception {
        ChangeLogWriter log = new ChangeLogWriter(connection, "repl_log", "tx1", "n1", INSERT);
        log.beginReading();
        for (int i = 0; i < 2 * ChangeLogWriter.ROWS_PER_INSERT; i++) log.add(null, "{}");
        assertThat(overflowFiles()).hasSize(1);
        log.close();
        assertThat(overflowFiles()).isEmpty();
        assertThat(rows()).isEmpty();
    }

    @Test
    void withoutAResultBeingReadLcrsAreWrittenAHundredAtATime() throws Exception {
        ChangeLogWriter log = new ChangeLogWriter(connection, "repl_log", "tx1", "n1", INSERT);
        for (int i = 0; i < ChangeLogWriter.ROWS_PER_INSERT + 1; i++) log.add(null, "{}");
        assertThat(rows()).hasSize(ChangeLogWriter.ROWS_PER_INSERT);
        assertThat(overflowFiles()).isEmpty();
    }

    private List<String[]> rows() throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT command_type, old_values, new_values FROM repl_log ORDER BY position")) {
            while (rs.next()) rows.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        }
        return rows;
    }

    private List<Path> overflowFiles() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().startsWith("repl-lcrs-")).toList();
        }
    }
}
