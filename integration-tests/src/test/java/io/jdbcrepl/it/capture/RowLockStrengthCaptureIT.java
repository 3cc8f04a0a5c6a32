package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL: a captured UPDATE locks its rows as strongly as the application's UPDATE would, no
 * more. An UPDATE of non-key columns takes {@code FOR NO KEY UPDATE}, which lets other transactions
 * insert rows that reference the updated row by foreign key (their check takes {@code KEY SHARE});
 * an UPDATE of a key column blocks them, raw and captured alike.
 */
class RowLockStrengthCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @Test
    void foreignKeyInsertsAreBlockedExactlyWhenTheRawUpdateBlocksThem() throws Exception {
        Sandbox box = CapturePair.create(databases, "lockstrength").sandbox(
                "CREATE TABLE parent (id int PRIMARY KEY, code text UNIQUE, v int NOT NULL)",
                "CREATE TABLE child (id int PRIMARY KEY, parent_id int NOT NULL REFERENCES parent (id))");
        box.seed("INSERT INTO parent VALUES (1, 'a', 0), (2, 'b', 0)");
        int child = 0;
        for (String update : List.of("UPDATE parent SET v = v + 1 WHERE id = 1", "UPDATE parent SET code = 'c' WHERE id = 1",
                "UPDATE parent SET id = 3 WHERE id = 1")) {
            boolean rawBlocks = blocksChildInsert(box.raw(), false, box, update, ++child);
            boolean capturedBlocks = blocksChildInsert(box.capturing(), true, box, update, ++child);
            assertThat(capturedBlocks).as(update).isEqualTo(rawBlocks);
            assertThat(rawBlocks).as(update).isEqualTo(!update.contains("v = v + 1"));
        }
        // The captured updates were logged with their changes, one LCR each.
        try (Connection raw = box.raw()) {
            assertThat(ChangeLogReader.read(raw, box.logSchema())).extracting(LoggedLcr::command)
                    .containsExactly("UPDATE", "UPDATE", "UPDATE");
        }
    }

    /**
     * Runs {@code update} on {@code connection} in a transaction and, while it is open, inserts a child
     * of parent 1 from a raw connection with a short lock timeout; then rolls the raw update back and
     * commits the captured one (so that its LCR can be checked), and restores the rows uncaptured.
     */
    private static boolean blocksChildInsert(Connection connection, boolean captured, Sandbox box, String update, int childId)
            throws SQLException {
        try (Connection c = connection; Connection other = box.raw(); Statement s = c.createStatement();
                Statement o = other.createStatement()) {
            c.setAutoCommit(false);
            assertThat(s.executeUpdate(update)).isEqualTo(1);
            o.execute("SET lock_timeout = '1s'");
            boolean blocked;
            try {
                o.executeUpdate("INSERT INTO child VALUES (" + childId + ", 1)");
                blocked = false;
            } catch (SQLException e) {
                assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("55P03"); // lock_timeout
                blocked = true;
            }
            if (captured) c.commit();
            else c.rollback();
            c.setAutoCommit(true);
            // Back to the seeded rows, uncaptured
            o.execute("RESET lock_timeout");
            o.executeUpdate("DELETE FROM child");
            o.executeUpdate("UPDATE parent SET id = 1, code = 'a' WHERE id = 3 OR code = 'c'");
            return blocked;
        }
    }
}
