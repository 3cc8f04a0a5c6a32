package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.Rows;
import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.Expect.ITEM_COLUMNS;
import static io.jdbcrepl.it.capture.Expect.delete;
import static io.jdbcrepl.it.capture.Expect.i;
import static io.jdbcrepl.it.capture.Expect.insert;
import static io.jdbcrepl.it.capture.Expect.item;
import static io.jdbcrepl.it.capture.Expect.s;
import static io.jdbcrepl.it.capture.Expect.tx;
import static io.jdbcrepl.it.capture.Expect.update;

/**
 * SPEC 3.1–3.3 on PostgreSQL, statement kind by statement kind: each scenario runs through
 * {@code jdbc:repl:} with {@code repl.node} on the node and through the raw driver on the mirror.
 * The application must see the same results (update counts, RETURNING rows, generated keys) and
 * the tables must end the same; the node's {@code repl_log} must hold exactly the expected LCRs,
 * transaction by transaction, with their old values, new values, change vector and types; and
 * replaying that log onto a copy of the starting tables must rebuild the node's tables.
 */
class StatementKindsCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String ITEM = "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, qty int, note text)";
    static final String PRICE = "CREATE TABLE price (item_id int PRIMARY KEY, amount numeric(8,2) NOT NULL)";
    static final String GEN = "CREATE TABLE gen (id serial PRIMARY KEY, ident bigint GENERATED ALWAYS AS IDENTITY,"
            + " code text DEFAULT 'x', qty int NOT NULL DEFAULT 7, total int GENERATED ALWAYS AS (qty * 2) STORED,"
            + " made date DEFAULT DATE '2020-02-02')";
    static final Map<String, List<String>> KEYS = Map.of("item", List.of("id"), "price", List.of("item_id"),
            "gen", List.of("id"));
    static final String SEED_ITEMS = "INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x'), (3, 'c', 3, NULL),"
            + " (4, 'd', 4, 'y'), (5, 'e', 5, NULL)";
    static final String SEED_PRICES = "INSERT INTO price VALUES (1, 9.50), (2, 12.00), (4, 3.25)";

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "kinds");
    }

    // ------------------------------------------------------------------ INSERT

    @Test
    void insertValuesOneAndManyRows() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("one row", () -> s.executeUpdate("INSERT INTO item (id, name, qty) VALUES (1, 'apple', 3)"));
                t.value("three rows", () -> s.executeUpdate("INSERT INTO item (id, name, qty, note) VALUES"
                        + " (2, 'pear', 5, 'green'), (3, 'plum', NULL, 'it''s'), (4, 'kiwi', -1, '')"));
                t.value("execute, columns out of table order", () -> s.execute("INSERT INTO item (name, id) VALUES ('fig', 5)"));
                t.value("update count", s::getUpdateCount);
                t.value("more results", s::getMoreResults);
                t.value("update count at the end", s::getUpdateCount);
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(1, "apple", 3, null), "id, name, qty")),
                tx(insert("item", item(2, "pear", 5, "green"), ITEM_COLUMNS),
                        insert("item", item(3, "plum", null, "it's"), ITEM_COLUMNS),
                        insert("item", item(4, "kiwi", -1, ""), ITEM_COLUMNS)),
                tx(insert("item", item(5, "fig", null, null), "id, name")));
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void insertSelect() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed("INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x'), (3, 'c', 3, NULL)", SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert select", () -> s.executeUpdate("INSERT INTO item (id, name, qty)"
                        + " SELECT id + 10, name || '-copy', qty * 2 FROM item WHERE qty >= 2"));
                t.value("insert select of no row", () -> s.executeUpdate("INSERT INTO item (id, name)"
                        + " SELECT id + 100, name FROM item WHERE false"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, note)"
                        + " SELECT id + ?, upper(name), ? FROM item WHERE id = ?")) {
                    ps.setInt(1, 20);
                    ps.setString(2, "p");
                    ps.setInt(3, 1);
                    t.value("prepared insert select", ps::executeUpdate);
                }
                t.value("insert select with join, order and limit", () -> s.executeUpdate("INSERT INTO item (id, name, qty)"
                        + " SELECT i.id + 30, i.name, p.amount::int FROM item i JOIN price p ON p.item_id = i.id"
                        + " ORDER BY i.id LIMIT 1"));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(12, "b-copy", 4, null), "id, name, qty"),
                        insert("item", item(13, "c-copy", 6, null), "id, name, qty")),
                tx(insert("item", item(21, "A", null, "p"), "id, name, note")),
                tx(insert("item", item(31, "a", 10, null), "id, name, qty")));
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void insertWithoutColumnList() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("every column", () -> s.executeUpdate("INSERT INTO item VALUES (1, 'a', 1, 'n1')"));
                t.value("the first two columns", () -> s.executeUpdate("INSERT INTO item VALUES (2, 'b')"));
                t.value("select of every column", () -> s.executeUpdate("INSERT INTO item SELECT id + 10, name, qty, note"
                        + " FROM item WHERE id = 1"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item VALUES (?, ?, ?)")) {
                    ps.setInt(1, 3);
                    ps.setString(2, "c");
                    ps.setInt(3, 3);
                    t.value("prepared, the first three columns", ps::executeUpdate);
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(1, "a", 1, "n1"), ITEM_COLUMNS)),
                tx(insert("item", item(2, "b", null, null), "id, name")),
                tx(insert("item", item(11, "a", 1, "n1"), ITEM_COLUMNS)),
                tx(insert("item", item(3, "c", 3, null), "id, name, qty")));
        box.assertLogReplays(KEYS, "item");
    }

    /** PostgreSQL fills the first columns of the table from a SELECT without column list, as from VALUES. */
    @Test
    void insertSelectWithoutColumnListGivingFewerColumnsThanTheTable() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed("INSERT INTO item VALUES (2, 'b', 2, 'x')");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("select of the first two columns", () -> s.executeUpdate("INSERT INTO item SELECT id + 20, name"
                        + " FROM item WHERE id = 2"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item SELECT id + ?, ?, qty FROM item WHERE id = ?")) {
                ps.setInt(1, 30);
                ps.setString(2, "p");
                ps.setInt(3, 2);
                t.value("prepared, parameters in the select list", ps::executeUpdate);
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                t.failure("a query that cannot be described, in a transaction", () -> s.executeUpdate(
                        "INSERT INTO item SELECT * FROM no_such_table"));
            }
            c.rollback();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item");
        // The driver describes the query once, when it plans the statement: its width names the columns filled.
        box.assertTransactions(tx(insert("item", item(22, "b", null, null), "id, name")),
                tx(insert("item", item(32, "p", 2, null), "id, name, qty")));
    }

    @Test
    void insertWithDefaultsSerialIdentityAndGeneratedColumns() throws Exception {
        Sandbox box = pair.sandbox(GEN);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("defaults", () -> s.executeUpdate("INSERT INTO gen (code) VALUES ('a')"));
                t.value("explicit DEFAULT", () -> s.executeUpdate("INSERT INTO gen (code, qty) VALUES (DEFAULT, 3), ('c', DEFAULT)"));
                t.value("DEFAULT VALUES", () -> s.executeUpdate("INSERT INTO gen DEFAULT VALUES"));
                t.value("DEFAULT for the serial key", () -> s.executeUpdate("INSERT INTO gen (id, code) VALUES (DEFAULT, 'd')"));
                t.value("no column list", () -> s.executeUpdate("INSERT INTO gen VALUES (DEFAULT, DEFAULT, 'e', 2)"));
                t.value("explicit key", () -> s.executeUpdate("INSERT INTO gen (id, code) VALUES (100, 'f')"));
                t.value("insert select", () -> s.executeUpdate("INSERT INTO gen (code, qty)"
                        + " SELECT 'g' || n, n FROM generate_series(1, 2) AS n"));
            }
        });
        box.assertSameContents("gen");
        String d = "made=DATE:2020-02-02";
        box.assertTransactions(
                tx(insert("gen", gen(1, 1, "a", 7) + ", " + d, "code")),
                tx(insert("gen", gen(2, 2, "x", 3) + ", " + d, "code, qty"),
                        insert("gen", gen(3, 3, "c", 7) + ", " + d, "code, qty")),
                tx(insert("gen", gen(4, 4, "x", 7) + ", " + d, "")),
                tx(insert("gen", gen(5, 5, "d", 7) + ", " + d, "id, code")),
                tx(insert("gen", gen(6, 6, "e", 2) + ", " + d, "id, ident, code, qty")),
                tx(insert("gen", gen(100, 7, "f", 7) + ", " + d, "id, code")),
                tx(insert("gen", gen(7, 8, "g1", 1) + ", " + d, "code, qty"),
                        insert("gen", gen(8, 9, "g2", 2) + ", " + d, "code, qty")));
        box.assertLogReplays(KEYS, "gen");
    }

    private static String gen(int id, int ident, String code, int qty) {
        return "id=" + i(id) + ", ident=" + i(ident) + ", code=" + s(code) + ", qty=" + i(qty) + ", total=" + i(qty * 2);
    }

    @Test
    void generatedKeys() throws Exception {
        Sandbox box = pair.sandbox(GEN);
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (code, qty) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "a");
                ps.setInt(2, 2);
                t.value("prepared, RETURN_GENERATED_KEYS", ps::executeUpdate);
                keys(t, "its keys", ps);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (code) VALUES (?)", new String[] {"id", "total"})) {
                ps.setString(1, "b");
                t.value("prepared, key columns by name", ps::executeUpdate);
                keys(t, "its keys", ps);
            }
            try (Statement s = c.createStatement()) {
                t.value("plain, RETURN_GENERATED_KEYS", () -> s.executeUpdate("INSERT INTO gen (code) VALUES ('p'), ('q')",
                        Statement.RETURN_GENERATED_KEYS));
                keys(t, "its keys", s);
                t.value("plain update, key columns by name", () -> s.execute("UPDATE gen SET qty = qty + 1 WHERE code = 'a'",
                        new String[] {"id", "qty"}));
                t.value("update count", s::getUpdateCount);
                keys(t, "its keys", s);
            }
        });
        box.assertSameContents("gen");
        String d = ", made=DATE:2020-02-02";
        box.assertTransactions(
                tx(insert("gen", gen(1, 1, "a", 2) + d, "code, qty")),
                tx(insert("gen", gen(2, 2, "b", 7) + d, "code")),
                tx(insert("gen", gen(3, 3, "p", 7) + d, "code"), insert("gen", gen(4, 4, "q", 7) + d, "code")),
                tx(update("gen", "id=" + i(1) + ", qty=" + i(2), "qty=" + i(3), "qty")));
        box.assertLogReplays(KEYS, "gen");
    }

    /**
     * Generated keys of a batch (as Hibernate asks for identity columns): pgjdbc runs such a batch
     * entry by entry and returns every entry's keys in order; in auto-commit mode the entries
     * before a failing one stay done, with their keys. Through the driver the same, each entry captured.
     */
    @Test
    void generatedKeysOfABatch() throws Exception {
        Sandbox box = pair.sandbox(GEN);
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (code, qty) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                for (int n = 1; n <= 3; n++) {
                    ps.setString(1, "abc".substring(n - 1, n));
                    ps.setInt(2, n);
                    ps.addBatch();
                }
                t.value("batch, RETURN_GENERATED_KEYS", ps::executeBatch);
                keys(t, "its keys", ps);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (code) VALUES (?)", new String[] {"id", "total"})) {
                for (String code : List.of("d", "e")) {
                    ps.setString(1, code);
                    ps.addBatch();
                }
                t.value("batch, key columns by name", ps::executeLargeBatch);
                keys(t, "its keys", ps);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (id, code) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                addBatch(ps, new Object[][] {{100, "f"}, {1, "duplicate"}, {101, "g"}});
                t.failure("batch with a duplicate key", ps::executeBatch);
                keys(t, "the keys of the entries before it", ps);
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gen (id, code) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                addBatch(ps, new Object[][] {{200, "h"}, {2, "duplicate"}});
                t.failure("failing batch in a transaction", ps::executeBatch);
                keys(t, "keys after it", ps);
            }
            c.rollback();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("UPDATE gen SET qty = qty + ? WHERE code = ?",
                    Statement.RETURN_GENERATED_KEYS)) {
                addBatch(ps, new Object[][] {{10, "a"}, {20, "none"}, {30, "b"}});
                t.value("update batch", ps::executeBatch);
                keys(t, "its keys", ps);
            }
        });
        box.assertSameContents("gen");
        String d = ", made=DATE:2020-02-02";
        box.assertTransactions(
                tx(insert("gen", gen(1, 1, "a", 1) + d, "code, qty")),
                tx(insert("gen", gen(2, 2, "b", 2) + d, "code, qty")),
                tx(insert("gen", gen(3, 3, "c", 3) + d, "code, qty")),
                tx(insert("gen", gen(4, 4, "d", 7) + d, "code")),
                tx(insert("gen", gen(5, 5, "e", 7) + d, "code")),
                tx(insert("gen", gen(100, 6, "f", 7) + d, "id, code")),
                tx(update("gen", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(11), "qty")),
                tx(update("gen", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(32), "qty")));
        box.assertLogReplays(KEYS, "gen");
    }

    /** One batch entry per row of values, bound in order. */
    private static void addBatch(PreparedStatement ps, Object[][] entries) throws SQLException {
        for (Object[] e : entries) {
            for (int k = 0; k < e.length; k++) ps.setObject(k + 1, e[k]);
            ps.addBatch();
        }
    }

    private static void keys(io.jdbcrepl.it.support.Trace t, String label, Statement s) {
        t.value(label, () -> {
            try (ResultSet rs = s.getGeneratedKeys()) {
                List<String> out = new ArrayList<>(Rows.columns(rs.getMetaData()));
                out.addAll(Rows.of(rs));
                return out;
            }
        });
    }

    @Test
    void insertOnConflictDoNothingLogsOnlyTheInsertedRows() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed("INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, NULL)");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("two of four rows conflict", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES"
                        + " (1, 'x'), (3, 'c'), (2, 'y'), (4, 'd') ON CONFLICT DO NOTHING"));
                t.value("every row conflicts", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (3, 'z')"
                        + " ON CONFLICT (id) DO NOTHING"));
                t.value("insert select, on constraint", () -> s.executeUpdate("INSERT INTO item (id, name)"
                        + " SELECT id + 1, 'n' || id FROM item ON CONFLICT ON CONSTRAINT item_pkey DO NOTHING"));
                t.value("a row conflicting with one of the same statement", () -> s.executeUpdate(
                        "INSERT INTO item (id, name) VALUES (6, 'e'), (6, 'f') ON CONFLICT DO NOTHING"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, qty) VALUES (?, ?, ?)"
                        + " ON CONFLICT (id) DO NOTHING")) {
                    for (int id : new int[] {6, 7}) {
                        ps.setInt(1, id);
                        ps.setString(2, "p" + id);
                        ps.setInt(3, id);
                        t.value("prepared " + id, ps::executeUpdate);
                    }
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(3, "c", null, null), "id, name"), insert("item", item(4, "d", null, null), "id, name")),
                tx(insert("item", item(5, "n4", null, null), "id, name")),
                tx(insert("item", item(6, "e", null, null), "id, name")),
                tx(insert("item", item(7, "p7", 7, null), "id, name, qty")));
        box.assertLogReplays(KEYS, "item");
    }

    /** INSERT … ON CONFLICT DO UPDATE: inserted rows as INSERT LCRs, updated rows as UPDATE LCRs with their old values. */
    @Test
    void insertOnConflictDoUpdate() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed("INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x')");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("one insert, one update", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'x'), (3, 'c')"
                        + " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"));
                t.value("DO UPDATE ... WHERE", () -> s.executeUpdate("INSERT INTO item (id, name, qty) VALUES (1, 'y', 10), (2, 'z', 10)"
                        + " ON CONFLICT (id) DO UPDATE SET qty = item.qty + EXCLUDED.qty WHERE item.qty < 2"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, qty) VALUES (?, ?, ?)"
                        + " ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty, note = 'upserted'")) {
                    Object[][] runs = {{2, "q", 5}, {4, "d", 4}};
                    for (Object[] r : runs) {
                        ps.setInt(1, (Integer) r[0]);
                        ps.setString(2, (String) r[1]);
                        ps.setInt(3, (Integer) r[2]);
                        t.value("prepared " + r[0], ps::executeUpdate);
                    }
                }
                t.value("alias and RETURNING", () -> rows(s.executeQuery("INSERT INTO item AS i (id, name) VALUES (1, 'w')"
                        + " ON CONFLICT (id) DO UPDATE SET name = i.name || EXCLUDED.name RETURNING i.id, i.name")));
                t.value("insert select", () -> s.executeUpdate("INSERT INTO item (id, name, qty)"
                        + " SELECT id + 2, name || '+', qty FROM item WHERE id <= 2 ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"));
                t.failure("the same row twice", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (5, 'e'), (5, 'f')"
                        + " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)"
                    + " ON CONFLICT (id) DO UPDATE SET note = EXCLUDED.name")) {
                ps.setInt(1, 5);
                ps.setString(2, "e");
                ps.addBatch();
                ps.setInt(1, 1);
                ps.setString(2, "n1");
                ps.addBatch();
                t.value("batch", ps::executeBatch);
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(3, "c", null, null), "id, name"),
                        update("item", "id=" + i(1) + ", name=" + s("a"), "name=" + s("x"), "name")),
                tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(11), "qty")),
                tx(update("item", "id=" + i(2) + ", qty=" + i(2) + ", note=" + s("x"), "qty=" + i(5) + ", note=" + s("upserted"),
                        "qty, note")),
                tx(insert("item", item(4, "d", 4, null), "id, name, qty")),
                tx(update("item", "id=" + i(1) + ", name=" + s("x"), "name=" + s("xw"), "name")),
                tx(update("item", "id=" + i(3) + ", name=" + s("c"), "name=" + s("xw+"), "name"),
                        update("item", "id=" + i(4) + ", name=" + s("d"), "name=" + s("b+"), "name")),
                tx(insert("item", item(5, "e", null, null), "id, name"),
                        update("item", "id=" + i(1) + ", note=" + s(null), "note=" + s("n1"), "note")));
        box.assertLogReplays(KEYS, "item");
    }

    /**
     * Issue 16: an ON CONFLICT DO UPDATE that assigns its own conflict column is captured like any key
     * update (SPEC 3.3): one UPDATE LCR whose old values carry the old key. It failed every time with
     * 22P02 "a concurrent insert got in first", and running it again never helped.
     */
    @Test
    void insertOnConflictDoUpdateOfTheConflictKey() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed("INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x'), (3, 'c', NULL, NULL), (4, 'd', 4, NULL)");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("the issue's statement", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'z')"
                        + " ON CONFLICT (id) DO UPDATE SET id = excluded.id + 100, name = excluded.name"));
                t.value("two key updates and an insert", () -> s.executeUpdate("INSERT INTO item (id, name)"
                        + " VALUES (2, 'b2'), (9, 'i'), (3, 'c3') ON CONFLICT (id) DO UPDATE SET id = item.id * 10"));
                t.value("back to a key just freed", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (101, 'q')"
                        + " ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id - 100"));
                t.failure("onto a key that exists", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (1, 'q')"
                        + " ON CONFLICT (id) DO UPDATE SET id = 20"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item AS i (id, name) VALUES (?, ?)"
                    + " ON CONFLICT (id) DO UPDATE SET id = ?, note = 'moved' WHERE i.qty IS NOT NULL RETURNING i.id, i.note")) {
                for (int[] run : new int[][] {{4, 40}, {30, 300}}) {
                    ps.setInt(1, run[0]);
                    ps.setString(2, "p");
                    ps.setInt(3, run[1]);
                    t.value("prepared, alias, WHERE, RETURNING " + run[0], () -> rows(ps.executeQuery()));
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", name=" + s("a"), "id=" + i(101) + ", name=" + s("z"), "id, name")),
                tx(insert("item", item(9, "i", null, null), "id, name"),
                        update("item", "id=" + i(2), "id=" + i(20), "id"), update("item", "id=" + i(3), "id=" + i(30), "id")),
                tx(update("item", "id=" + i(101), "id=" + i(1), "id")),
                tx(update("item", "id=" + i(4) + ", note=" + s(null), "id=" + i(40) + ", note=" + s("moved"), "id, note")));
        box.assertLogReplays(KEYS, "item");
    }

    // ------------------------------------------------------------------ UPDATE

    @Test
    void updatesOfOneRowManyRowsAndNoRow() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("one row", () -> s.executeUpdate("UPDATE item SET qty = qty + 10 WHERE id = 2"));
                t.value("two rows, two columns", () -> s.executeUpdate("UPDATE item SET note = 'many', qty = 0"
                        + " WHERE qty BETWEEN 4 AND 5"));
                t.value("no row", () -> s.executeUpdate("UPDATE item SET qty = 1 WHERE id = 999"));
                t.value("a row set to its own value", () -> s.executeUpdate("UPDATE item SET qty = qty WHERE id = 3"));
                t.value("every row, execute", () -> s.execute("UPDATE item SET name = upper(name)"));
                t.value("update count", s::getUpdateCount);
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(12), "qty")),
                tx(update("item", "id=" + i(4) + ", qty=" + i(4) + ", note=" + s("y"), "qty=" + i(0) + ", note=" + s("many"),
                                "qty, note"),
                        update("item", "id=" + i(5) + ", qty=" + i(5) + ", note=" + s(null), "qty=" + i(0) + ", note=" + s("many"),
                                "qty, note")),
                tx(update("item", "id=" + i(3) + ", qty=" + i(3), "qty=" + i(3), "qty")),
                tx(nameUpper(1, "a"), nameUpper(2, "b"), nameUpper(3, "c"), nameUpper(4, "d"), nameUpper(5, "e")));
        box.assertLogReplays(KEYS, "item");
    }

    private static String nameUpper(int id, String name) {
        return update("item", "id=" + i(id) + ", name=" + s(name), "name=" + s(name.toUpperCase()), "name");
    }

    /** SPEC 3.3: an update of a key column is one UPDATE LCR whose old values carry the old key. */
    @Test
    void updatesOfTheKey() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("key only", () -> s.executeUpdate("UPDATE item SET id = id + 100 WHERE id = 1"));
                t.value("key and another column", () -> s.executeUpdate("UPDATE item SET name = 'renamed', id = 200 WHERE id = 3"));
                t.value("keys of two rows", () -> s.executeUpdate("UPDATE item SET id = id * 1000 WHERE id IN (4, 5)"));
                try (PreparedStatement ps = c.prepareStatement("UPDATE item SET id = ? WHERE id = ?")) {
                    ps.setInt(1, 7);
                    ps.setInt(2, 2);
                    t.value("prepared", ps::executeUpdate);
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1), "id=" + i(101), "id")),
                tx(update("item", "id=" + i(3) + ", name=" + s("c"), "id=" + i(200) + ", name=" + s("renamed"), "id, name")),
                tx(update("item", "id=" + i(4), "id=" + i(4000), "id"), update("item", "id=" + i(5), "id=" + i(5000), "id")),
                tx(update("item", "id=" + i(2), "id=" + i(7), "id")));
        box.assertLogReplays(KEYS, "item");
    }

    /** Issue 16: Hibernate 6's bulk HQL update and delete on PostgreSQL name the table under an alias. */
    @Test
    void hibernateBulkUpdateAndDeleteUnderAnAlias() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("update item i1_0 set qty=?,note=? where i1_0.id=?")) {
                ps.setInt(1, 9);
                ps.setString(2, "bulk");
                ps.setInt(3, 2);
                t.value("bulk update", ps::executeUpdate);
            }
            try (PreparedStatement ps = c.prepareStatement("delete from item i1_0 where i1_0.qty<? and i1_0.id<>?")) {
                ps.setInt(1, 4);
                ps.setInt(2, 2);
                t.value("bulk delete", ps::executeUpdate);
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(2) + ", qty=" + i(2) + ", note=" + s("x"), "qty=" + i(9) + ", note=" + s("bulk"),
                        "qty, note")),
                tx(delete("item", item(1, "a", 1, null)), delete("item", item(3, "c", 3, null))));
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void updatesWithSubqueries() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED_ITEMS, SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("IN (SELECT ...)", () -> s.executeUpdate("UPDATE item SET note = 'priced'"
                        + " WHERE id IN (SELECT item_id FROM price WHERE amount < 10)"));
                t.value("correlated EXISTS, alias", () -> s.executeUpdate("UPDATE item AS i SET qty = i.qty + 1"
                        + " WHERE EXISTS (SELECT 1 FROM price p WHERE p.item_id = i.id AND p.amount >= 10)"));
                t.value("correlated subquery in SET", () -> s.executeUpdate("UPDATE item"
                        + " SET qty = (SELECT count(*) FROM price WHERE price.item_id <= item.id) WHERE id = 5"));
                t.value("scalar subquery on the same table", () -> s.executeUpdate("UPDATE item SET qty = -1"
                        + " WHERE qty = (SELECT max(qty) FROM item)"));
                t.value("NOT IN", () -> s.executeUpdate("UPDATE item SET name = name || '!'"
                        + " WHERE id NOT IN (SELECT item_id FROM price) AND qty > 0"));
                try (PreparedStatement ps = c.prepareStatement("UPDATE item SET note = ?"
                        + " WHERE id IN (SELECT item_id FROM price WHERE amount > ?)")) {
                    ps.setString(1, "big");
                    ps.setBigDecimal(2, new java.math.BigDecimal("10"));
                    t.value("prepared, parameter in the subquery", ps::executeUpdate);
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", note=" + s(null), "note=" + s("priced"), "note"),
                        update("item", "id=" + i(4) + ", note=" + s("y"), "note=" + s("priced"), "note")),
                tx(update("item", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(3), "qty")),
                tx(update("item", "id=" + i(5) + ", qty=" + i(5), "qty=" + i(3), "qty")),
                tx(update("item", "id=" + i(4) + ", qty=" + i(4), "qty=" + i(-1), "qty")),
                tx(update("item", "id=" + i(3) + ", name=" + s("c"), "name=" + s("c!"), "name"),
                        update("item", "id=" + i(5) + ", name=" + s("e"), "name=" + s("e!"), "name")),
                tx(update("item", "id=" + i(2) + ", note=" + s("x"), "note=" + s("big"), "note")));
        box.assertLogReplays(KEYS, "item");
    }

    // ------------------------------------------------------------------ DELETE

    @Test
    void deletes() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED_ITEMS, SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("one row", () -> s.executeUpdate("DELETE FROM item WHERE id = 2"));
                t.value("subquery, alias", () -> s.executeUpdate("DELETE FROM item AS i"
                        + " WHERE i.id IN (SELECT item_id FROM price WHERE amount < 10)"));
                t.value("no row", () -> s.executeUpdate("DELETE FROM item WHERE id = 999"));
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM item WHERE qty >= ?")) {
                    ps.setInt(1, 5);
                    t.value("prepared", ps::executeUpdate);
                }
                t.value("without WHERE", () -> s.executeUpdate("DELETE FROM item"));
                t.value("without WHERE, empty table", () -> s.executeUpdate("DELETE FROM item"));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(delete("item", item(2, "b", 2, "x"))),
                tx(delete("item", item(1, "a", 1, null)), delete("item", item(4, "d", 4, "y"))),
                tx(delete("item", item(5, "e", 5, null))),
                tx(delete("item", item(3, "c", 3, null))));
        box.assertLogReplays(KEYS, "item");
    }

    // ------------------------------------------------------------------ RETURNING

    @Test
    void returningGivesTheApplicationWhatPostgresqlReturns() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert returning", () -> rows(s.executeQuery(
                        "INSERT INTO item (id, name, qty) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3) RETURNING id, name")));
                t.value("execute update returning *", () -> s.execute("UPDATE item SET qty = qty * 10 WHERE id = 2 RETURNING *"));
                t.value("its rows", () -> rows(s.getResultSet()));
                t.value("update count", s::getUpdateCount);
                t.value("more results", s::getMoreResults);
                t.value("update count at the end", s::getUpdateCount);
                try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = qty + ? WHERE id <= ?"
                        + " RETURNING id, qty, qty * 2 AS twice, note IS NULL AS no_note")) {
                    ps.setInt(1, 1);
                    ps.setInt(2, 2);
                    t.value("prepared update returning expressions", () -> rows(ps.executeQuery()));
                }
                t.value("delete returning table.*", () -> rows(s.executeQuery("DELETE FROM item WHERE id = 1 RETURNING item.*")));
                t.value("insert with alias returning", () -> rows(s.executeQuery(
                        "INSERT INTO item AS it (id, name) VALUES (4, 'd') RETURNING it.id, upper(it.name) AS up")));
                t.value("update of no row returning", () -> rows(s.executeQuery("UPDATE item SET qty = 0 WHERE id = 999 RETURNING id")));
                t.value("on conflict do nothing returning", () -> rows(s.executeQuery(
                        "INSERT INTO item (id, name) VALUES (4, 'x'), (5, 'e') ON CONFLICT DO NOTHING RETURNING id, name")));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(1, "a", 1, null), "id, name, qty"), insert("item", item(2, "b", 2, null), "id, name, qty"),
                        insert("item", item(3, "c", 3, null), "id, name, qty")),
                tx(update("item", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(20), "qty")),
                tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(2), "qty"),
                        update("item", "id=" + i(2) + ", qty=" + i(20), "qty=" + i(21), "qty")),
                tx(delete("item", item(1, "a", 2, null))),
                tx(insert("item", item(4, "d", null, null), "id, name")),
                tx(insert("item", item(5, "e", null, null), "id, name")));
        box.assertLogReplays(KEYS, "item");
    }

    /** Column labels and types, then the rows. */
    static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>(Rows.columns(rs.getMetaData()));
        out.addAll(Rows.of(rs));
        return out;
    }

    // ------------------------------------------------------------------ prepared, batched, large

    @Test
    void preparedStatementsWithParameters() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, qty, note) VALUES (?, ?, ?, ?)")) {
                for (int id = 1; id <= 8; id++) { // past pgjdbc's prepareThreshold: server-side prepared too
                    ps.setInt(1, id);
                    ps.setString(2, "n" + id);
                    if (qty(id) == null) ps.setNull(3, Types.INTEGER);
                    else ps.setObject(3, qty(id));
                    if (note(id) == null) ps.setNull(4, Types.VARCHAR);
                    else ps.setString(4, note(id));
                    int n = id;
                    t.value("insert " + n, ps::executeUpdate);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = ?, note = ? WHERE id = ?")) {
                Object[][] runs = {{100, "u", 2}, {200, null, 3}, {300, "v", 99}};
                for (Object[] r : runs) {
                    ps.setInt(1, (Integer) r[0]);
                    ps.setString(2, (String) r[1]);
                    ps.setInt(3, (Integer) r[2]);
                    t.value("update " + r[2], ps::executeUpdate);
                }
                ps.clearParameters();
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = coalesce(qty, 0) + ? WHERE id BETWEEN ? AND ?")) {
                ps.setInt(1, 5);
                ps.setInt(2, 4);
                ps.setInt(3, 6);
                t.value("update of a range", ps::executeUpdate);
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM item WHERE id = ? OR name = ?")) {
                ps.setInt(1, 1);
                ps.setString(2, "n8");
                t.value("delete", ps::executeUpdate);
            }
        });
        box.assertSameContents("item");
        List<List<String>> expected = new ArrayList<>();
        for (int id = 1; id <= 8; id++) expected.add(tx(insert("item", item(id, "n" + id, qty(id), note(id)), ITEM_COLUMNS)));
        expected.add(tx(update("item", "id=" + i(2) + ", qty=" + i(20) + ", note=" + s("even"), "qty=" + i(100) + ", note=" + s("u"),
                "qty, note")));
        expected.add(tx(update("item", "id=" + i(3) + ", qty=" + i(null) + ", note=" + s(null), "qty=" + i(200) + ", note=" + s(null),
                "qty, note")));
        expected.add(tx(update("item", "id=" + i(4) + ", qty=" + i(40), "qty=" + i(45), "qty"),
                update("item", "id=" + i(5) + ", qty=" + i(50), "qty=" + i(55), "qty"),
                update("item", "id=" + i(6) + ", qty=" + i(null), "qty=" + i(5), "qty")));
        expected.add(tx(delete("item", item(1, "n1", 10, null)), delete("item", item(8, "n8", 80, "even"))));
        @SuppressWarnings("unchecked")
        List<String>[] groups = expected.toArray(new List[0]);
        box.assertTransactions(groups);
        box.assertLogReplays(KEYS, "item");
    }

    private static Integer qty(int id) {
        return id % 3 == 0 ? null : id * 10;
    }

    private static String note(int id) {
        return id % 2 == 0 ? "even" : null;
    }

    @Test
    void batches() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name, qty) VALUES (?, ?, ?)")) {
                for (int id = 1; id <= 5; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, "b" + id);
                    ps.setInt(3, id);
                    ps.addBatch();
                }
                t.value("prepared insert batch", ps::executeBatch);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = qty + ? WHERE id >= ?")) {
                int[][] entries = {{10, 3}, {1, 99}, {100, 1}};
                for (int[] e : entries) {
                    ps.setInt(1, e[0]);
                    ps.setInt(2, e[1]);
                    ps.addBatch();
                }
                t.value("prepared update batch", ps::executeBatch);
            }
            try (Statement s = c.createStatement()) {
                s.addBatch("INSERT INTO item (id, name) VALUES (6, 'f')");
                s.addBatch("UPDATE item SET note = 'b' WHERE id <= 2");
                s.addBatch("DELETE FROM item WHERE id = 5");
                s.addBatch("UPDATE item SET note = 'none' WHERE id = 42");
                t.value("plain batch", s::executeBatch);
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                for (int id = 7; id <= 8; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, "t" + id);
                    ps.addBatch();
                }
                t.value("large batch in a transaction", ps::executeLargeBatch);
            }
            c.commit();
            c.setAutoCommit(true);
        });
        box.assertSameContents("item");
        // A batch is what the rows say; which transaction each entry ran in is checked in TransactionCaptureIT.
        List<String> expected = new ArrayList<>();
        for (int id = 1; id <= 5; id++) expected.add(insert("item", item(id, "b" + id, id, null), "id, name, qty"));
        for (int id = 3; id <= 5; id++) expected.add(update("item", "id=" + i(id) + ", qty=" + i(id), "qty=" + i(id + 10), "qty"));
        for (int id = 1; id <= 5; id++) {
            int before = id >= 3 ? id + 10 : id;
            expected.add(update("item", "id=" + i(id) + ", qty=" + i(before), "qty=" + i(before + 100), "qty"));
        }
        expected.add(insert("item", item(6, "f", null, null), "id, name"));
        for (int id = 1; id <= 2; id++) expected.add(update("item", "id=" + i(id) + ", note=" + s(null), "note=" + s("b"), "note"));
        expected.add(delete("item", item(5, "b5", 115, null)));
        expected.add(insert("item", item(7, "t7", null, null), "id, name"));
        expected.add(insert("item", item(8, "t8", null, null), "id, name"));
        org.assertj.core.api.Assertions.assertThat(box.briefs()).as("repl_log after the batches")
                .containsExactlyInAnyOrderElementsOf(expected);
        box.assertLogReplays(KEYS, "item");
    }

    @Test
    void executeLargeUpdate() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("plain insert", () -> s.executeLargeUpdate("INSERT INTO item (id, name, qty) VALUES (1, 'a', 1), (2, 'b', 2)"));
                t.value("large update count", s::getLargeUpdateCount);
                try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = qty * ? WHERE id > ?")) {
                    ps.setInt(1, 3);
                    ps.setInt(2, 0);
                    t.value("prepared update", ps::executeLargeUpdate);
                }
                t.value("plain delete", () -> s.executeLargeUpdate("DELETE FROM item WHERE id = 1"));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                    ps.setInt(1, 3);
                    ps.setString(2, "c");
                    t.value("prepared insert", ps::executeLargeUpdate);
                }
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(insert("item", item(1, "a", 1, null), "id, name, qty"), insert("item", item(2, "b", 2, null), "id, name, qty")),
                tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(3), "qty"),
                        update("item", "id=" + i(2) + ", qty=" + i(2), "qty=" + i(6), "qty")),
                tx(delete("item", item(1, "a", 3, null))),
                tx(insert("item", item(3, "c", null, null), "id, name")));
        box.assertLogReplays(KEYS, "item");
    }

    /**
     * executeUpdate of a statement that returns rows, executeQuery of one that returns none: pgjdbc
     * runs the statement and then throws; through the driver the same, with the change captured.
     */
    @Test
    void executeMethodsThatDoNotFitTheStatement() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.outcome("executeUpdate of UPDATE ... RETURNING", () -> s.executeUpdate("UPDATE item SET name = 'r' WHERE id = 1 RETURNING id"));
                t.outcome("executeQuery of an UPDATE", () -> Rows.of(s.executeQuery("UPDATE item SET name = 'q' WHERE id = 2")));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (id, name) VALUES (?, ?)")) {
                ps.setInt(1, 6);
                ps.setString(2, "f");
                t.outcome("prepared executeQuery of an INSERT", () -> Rows.of(ps.executeQuery()));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", name=" + s("a"), "name=" + s("r"), "name")),
                tx(update("item", "id=" + i(2) + ", name=" + s("b"), "name=" + s("q"), "name")),
                tx(insert("item", item(6, "f", null, null), "id, name")));
    }

    /** DML through a CallableStatement is DML all the same. */
    @Test
    void callableStatementDml() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        box.compare((c, t) -> {
            try (java.sql.CallableStatement cs = c.prepareCall("UPDATE item SET qty = ? WHERE id = ?")) {
                cs.setInt(1, 10);
                cs.setInt(2, 1);
                t.value("update", cs::executeUpdate);
            }
            try (java.sql.CallableStatement cs = c.prepareCall("INSERT INTO item (id, name) VALUES (?, ?)")) {
                cs.setInt(1, 6);
                cs.setString(2, "f");
                t.value("insert", cs::executeUpdate);
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(10), "qty")),
                tx(insert("item", item(6, "f", null, null), "id, name")));
    }

    /**
     * Updatable result sets change rows too (pgjdbc sends its own UPDATE, DELETE and INSERT for
     * updateRow, deleteRow and insertRow). SPEC 3.1: a change is captured completely or not made;
     * whichever the driver chooses, the log must replay to the table.
     */
    @Test
    void updatableResultSetsAreCapturedOrRefused() throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED_ITEMS);
        SQLException refused = null;
        try (java.sql.Connection c = box.capturing();
                Statement s = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE);
                ResultSet rs = s.executeQuery("SELECT id, name, qty, note FROM item WHERE id IN (1, 2) ORDER BY id")) {
            rs.next();
            rs.updateInt("qty", 10);
            rs.updateRow();
            rs.next();
            rs.deleteRow();
            rs.moveToInsertRow();
            rs.updateInt("id", 6);
            rs.updateString("name", "f");
            rs.insertRow();
        } catch (SQLException e) {
            refused = e;
        }
        box.assertLogReplays(KEYS, "item");
        if (refused == null) {
            box.assertTransactions(
                    tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(10), "qty")),
                    tx(delete("item", item(2, "b", 2, "x"))),
                    tx(insert("item", item(6, "f", null, null), "id, name")));
        }
    }

    /** Quoted, mixed-case and schema-qualified table and column names. */
    @Test
    void quotedAndQualifiedNames() throws Exception {
        Sandbox box = pair.sandbox("CREATE TABLE \"Odd Table\" (\"Id\" int PRIMARY KEY, \"Value\" text, plain int)");
        String schema = box.schema();
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("quoted", () -> s.executeUpdate("INSERT INTO \"Odd Table\" (\"Id\", \"Value\") VALUES (1, 'x')"));
                t.value("qualified", () -> s.executeUpdate("INSERT INTO " + schema + ".\"Odd Table\" VALUES (2, 'y', 2)"));
                t.value("update", () -> s.executeUpdate("UPDATE \"Odd Table\" SET \"Value\" = 'z', PLAIN = 7 WHERE \"Id\" = 1"));
                t.value("delete", () -> s.executeUpdate("DELETE FROM " + schema + ".\"Odd Table\" WHERE \"Id\" = 2"));
            }
        });
        box.assertSameContents("\"Odd Table\"");
        String table = "Odd Table";
        box.assertTransactions(
                tx(insert(table, "Id=" + i(1) + ", Value=" + s("x") + ", plain=" + i(null), "Id, Value")),
                tx(insert(table, "Id=" + i(2) + ", Value=" + s("y") + ", plain=" + i(2), "Id, Value, plain")),
                tx(update(table, "Id=" + i(1) + ", Value=" + s("x") + ", plain=" + i(null), "Value=" + s("z") + ", plain=" + i(7),
                        "Value, plain")),
                tx(delete(table, "Id=" + i(2) + ", Value=" + s("y") + ", plain=" + i(2))));
        box.assertLogReplays(Map.of(table, List.of("Id")), "\"Odd Table\"");
    }
}
