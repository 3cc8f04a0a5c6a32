package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigInteger;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.jdbcrepl.it.capture.Expect.ITEM_COLUMNS;
import static io.jdbcrepl.it.capture.Expect.delete;
import static io.jdbcrepl.it.capture.Expect.i;
import static io.jdbcrepl.it.capture.Expect.insert;
import static io.jdbcrepl.it.capture.Expect.item;
import static io.jdbcrepl.it.capture.Expect.s;
import static io.jdbcrepl.it.capture.Expect.tx;
import static io.jdbcrepl.it.capture.Expect.update;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.1: LCRs are written in the application's transaction. Rollback (also to a savepoint),
 * failed statements and failed batches leave none; commit leaves exactly those of the changed
 * rows, all with the id of the transaction that changed them.
 */
class TransactionCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String ITEM = "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, qty int CHECK (qty >= 0), note text)";
    static final String CHILD = "CREATE TABLE child (id int PRIMARY KEY, item_id int NOT NULL REFERENCES item (id))";
    static final Map<String, List<String>> KEYS = Map.of("item", List.of("id"), "child", List.of("id"));
    static final String SEED = "INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x')";

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "tx");
    }

    private static Sandbox seeded() throws SQLException {
        Sandbox box = pair.sandbox(ITEM, CHILD);
        box.seed(SEED, "INSERT INTO child VALUES (10, 1)");
        return box;
    }

    @Test
    void rollbackLeavesNoLcr() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement(); PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = ? WHERE id = ?")) {
                t.value("insert", () -> s.executeUpdate("INSERT INTO item VALUES (3, 'c', 3, NULL), (4, 'd', 4, NULL)"));
                ps.setInt(1, 9);
                ps.setInt(2, 1);
                t.value("update", ps::executeUpdate);
                t.value("delete", () -> s.executeUpdate("DELETE FROM item WHERE id = 2"));
                t.value("batch", () -> {
                    s.addBatch("UPDATE item SET note = 'z'");
                    s.addBatch("INSERT INTO item VALUES (5, 'e', 5, NULL)");
                    return s.executeBatch();
                });
            }
            c.rollback();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item");
        assertThat(box.nodeContents("item")).containsExactly("(1,a,1,)", "(2,b,2,x)");
        assertThat(box.log()).isEmpty();
    }

    @Test
    void rollbackToSavepointRemovesTheLcrsAfterIt() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                t.value("insert 3", () -> s.executeUpdate("INSERT INTO item VALUES (3, 'c', 3, NULL)"));
                Savepoint first = c.setSavepoint("first");
                t.value("insert 4", () -> s.executeUpdate("INSERT INTO item VALUES (4, 'd', 4, NULL)"));
                t.value("update 3", () -> s.executeUpdate("UPDATE item SET qty = 30 WHERE id = 3"));
                Savepoint second = c.setSavepoint();
                t.value("delete child", () -> s.executeUpdate("DELETE FROM child"));
                c.rollback(second);
                t.value("update 4", () -> s.executeUpdate("UPDATE item SET note = 'kept?' WHERE id = 4"));
                c.rollback(first);
                t.value("insert 5", () -> s.executeUpdate("INSERT INTO item VALUES (5, 'e', 5, NULL)"));
                Savepoint third = c.setSavepoint();
                t.value("update 2", () -> s.executeUpdate("UPDATE item SET qty = 20 WHERE id = 2"));
                c.releaseSavepoint(third);
            }
            c.commit();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item", "child");
        box.assertTransactions(tx(insert("item", item(3, "c", 3, null), ITEM_COLUMNS),
                insert("item", item(5, "e", 5, null), ITEM_COLUMNS),
                update("item", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(20), "qty")));
        box.assertLogReplays(KEYS, "item", "child");
    }

    @Test
    void failedStatementsInAutocommitLeaveNoLcr() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.failure("duplicate key in the second row", () -> s.executeUpdate("INSERT INTO item VALUES (3, 'c', 3, NULL), (1, 'dup', 1, NULL)"));
                t.failure("not null", () -> s.executeUpdate("UPDATE item SET name = NULL WHERE id >= 1"));
                t.failure("check on one of two rows", () -> s.executeUpdate("UPDATE item SET qty = qty - 2"));
                t.failure("key update onto an existing key", () -> s.executeUpdate("UPDATE item SET id = 2 WHERE id = 1"));
                t.failure("foreign key", () -> s.executeUpdate("DELETE FROM item"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                    ps.setInt(1, 2);
                    ps.setString(2, "dup");
                    t.failure("prepared duplicate", ps::executeUpdate);
                }
                t.value("the connection goes on", () -> s.executeUpdate("UPDATE item SET note = 'ok' WHERE id = 2"));
            }
        });
        box.assertSameContents("item", "child");
        box.assertTransactions(tx(update("item", "id=" + i(2) + ", note=" + s("x"), "note=" + s("ok"), "note")));
    }

    @Test
    void failedStatementInATransaction() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                t.value("insert 3", () -> s.executeUpdate("INSERT INTO item VALUES (3, 'c', 3, NULL)"));
                t.failure("duplicate", () -> s.executeUpdate("INSERT INTO item VALUES (4, 'd', 4, NULL), (2, 'dup', 1, NULL)"));
                t.failure("aborted transaction", () -> s.executeUpdate("UPDATE item SET qty = 5"));
                c.rollback();
                t.value("insert 5", () -> s.executeUpdate("INSERT INTO item VALUES (5, 'e', 5, NULL)"));
                Savepoint sp = c.setSavepoint();
                t.failure("check", () -> s.executeUpdate("UPDATE item SET qty = -1 WHERE id = 5"));
                c.rollback(sp);
                t.value("insert 6", () -> s.executeUpdate("INSERT INTO item VALUES (6, 'f', 6, NULL)"));
                c.commit();
            }
            c.setAutoCommit(true);
        });
        box.assertSameContents("item");
        box.assertTransactions(tx(insert("item", item(5, "e", 5, null), ITEM_COLUMNS), insert("item", item(6, "f", 6, null), ITEM_COLUMNS)));
        box.assertLogReplays(KEYS, "item", "child");
    }

    @Test
    void failedBatchesLeaveNoLcr() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                for (int id : new int[] {10, 11, 1, 12}) {
                    ps.setInt(1, id);
                    ps.setString(2, "n" + id);
                    ps.addBatch();
                }
                t.failure("prepared batch, third entry a duplicate (autocommit)", ps::executeBatch);
            }
            try (Statement s = c.createStatement()) {
                s.addBatch("UPDATE item SET qty = qty + 1");
                s.addBatch("INSERT INTO item VALUES (13, 'm', 1, NULL)");
                s.addBatch("UPDATE item SET qty = -5 WHERE id = 13");
                s.addBatch("DELETE FROM child");
                t.failure("plain batch, third entry violates a check (autocommit)", s::executeBatch);
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET id = ? WHERE id = ?")) {
                ps.setInt(1, 7);
                ps.setInt(2, 2);
                ps.addBatch();
                ps.setInt(1, 7);
                ps.setInt(2, 1);
                ps.addBatch();
                t.failure("prepared batch in a transaction, second entry a duplicate", ps::executeBatch);
            }
            c.rollback();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item", "child");
        assertThat(box.nodeContents("item")).as("nothing of the failed batches stays").containsExactly("(1,a,1,)", "(2,b,2,x)");
        assertThat(box.log()).isEmpty();
    }

    /** Every LCR carries the id of the transaction that changed its row; different transactions differ. */
    @Test
    void commitLeavesExactlyTheLcrsOfTheChangedRowsUnderTheirTransaction() throws Exception {
        Sandbox box = seeded();
        String txA;
        String txB;
        try (Connection c = box.capturing(); Connection observer = box.raw()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                txA = currentTx(s);
                s.executeUpdate("INSERT INTO item VALUES (3, 'c', 3, NULL), (4, 'd', 4, NULL)");
                s.executeUpdate("UPDATE item SET qty = 10 WHERE id IN (1, 3)");
                s.executeUpdate("DELETE FROM item WHERE id = 4");
                s.executeUpdate("UPDATE item SET qty = 0 WHERE id = 99");
                s.executeQuery("SELECT * FROM item FOR UPDATE").close();
                assertThat(ChangeLogReader.read(observer, box.logSchema())).as("LCRs of an open transaction, seen from another").isEmpty();
                c.commit();
                txB = currentTx(s);
                s.executeUpdate("UPDATE item SET note = 'b' WHERE id = 2");
                c.commit();
                c.setAutoCommit(true);
                s.executeUpdate("UPDATE item SET name = 'C' WHERE id = 3");
                s.executeUpdate("UPDATE item SET name = 'D' WHERE id = 3");
            }
        }
        assertThat(txA).isNotEqualTo(txB);
        List<LoggedLcr> log = box.log();
        box.assertTransactions(
                tx(insert("item", item(3, "c", 3, null), ITEM_COLUMNS), insert("item", item(4, "d", 4, null), ITEM_COLUMNS),
                        update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(10), "qty"),
                        update("item", "id=" + i(3) + ", qty=" + i(3), "qty=" + i(10), "qty"),
                        delete("item", item(4, "d", 4, null))),
                tx(update("item", "id=" + i(2) + ", note=" + s("x"), "note=" + s("b"), "note")),
                tx(update("item", "id=" + i(3) + ", name=" + s("c"), "name=" + s("C"), "name")),
                tx(update("item", "id=" + i(3) + ", name=" + s("C"), "name=" + s("D"), "name")));
        assertThat(log.subList(0, 5)).allSatisfy(l -> assertThat(l.txId()).isEqualTo(txA));
        assertThat(log.get(5).txId()).isEqualTo(txB);
        Set<String> ids = new HashSet<>();
        log.forEach(l -> ids.add(l.txId()));
        assertThat(ids).as("four transactions, four ids").hasSize(4);
        assertRowsCarryTheirLcrsTransaction(box, log);
        box.assertLogReplays(KEYS, "item", "child");
    }

    /**
     * Batches in autocommit: whatever transaction pgjdbc runs the entries in, each LCR carries the id
     * of the transaction that wrote its row (the row's xmin).
     */
    @Test
    void batchLcrsBelongToTheTransactionThatChangedTheRows() throws Exception {
        Sandbox box = seeded();
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                for (int id = 20; id < 25; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, "n" + id);
                    ps.addBatch();
                }
                t.value("batch", ps::executeBatch);
            }
            try (Statement s = c.createStatement()) {
                s.addBatch("UPDATE item SET note = 'u' WHERE id = 1");
                s.addBatch("INSERT INTO item (id, name) VALUES (30, 'x')");
                t.value("plain batch", s::executeBatch);
            }
        });
        box.assertSameContents("item");
        List<LoggedLcr> log = box.log();
        assertThat(log).hasSize(7);
        assertRowsCarryTheirLcrsTransaction(box, log);
        box.assertLogReplays(KEYS, "item", "child");
    }

    /**
     * The xmin of each row still present equals the last LCR of that row's transaction id (modulo
     * 2^32: xmin is the 32-bit form of the xid8 the log keeps).
     */
    private static void assertRowsCarryTheirLcrsTransaction(Sandbox box, List<LoggedLcr> log) throws SQLException {
        Map<Integer, String> lastTxOfRow = new HashMap<>();
        for (LoggedLcr l : log) {
            if (!l.table().equals("item")) continue;
            if (l.command().equals("DELETE")) {
                lastTxOfRow.remove(((Long) l.oldValues().get("id").value()).intValue());
                continue;
            }
            var image = l.newValues().has("id") ? l.newValues() : l.oldValues();
            lastTxOfRow.put(((Long) image.get("id").value()).intValue(), l.txId());
        }
        try (Connection raw = box.raw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, xmin::text FROM item")) {
            while (rs.next()) {
                String tx = lastTxOfRow.get(rs.getInt(1));
                if (tx == null) continue; // seeded, never changed through the driver
                String xmin32 = new BigInteger(tx).mod(BigInteger.ONE.shiftLeft(32)).toString();
                assertThat(rs.getString(2)).as("xmin of row %d vs tx_id %s of its last LCR", rs.getInt(1), tx).isEqualTo(xmin32);
            }
        }
    }

    private static String currentTx(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
