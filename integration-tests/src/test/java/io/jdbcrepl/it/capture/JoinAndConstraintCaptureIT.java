package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.Expect.delete;
import static io.jdbcrepl.it.capture.Expect.i;
import static io.jdbcrepl.it.capture.Expect.insert;
import static io.jdbcrepl.it.capture.Expect.item;
import static io.jdbcrepl.it.capture.Expect.s;
import static io.jdbcrepl.it.capture.Expect.tx;
import static io.jdbcrepl.it.capture.Expect.update;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.ITEM;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.KEYS;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.PRICE;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.SEED_ITEMS;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.SEED_PRICES;
import static io.jdbcrepl.it.capture.StatementKindsCaptureIT.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL's join forms and named conflict targets, captured: {@code UPDATE … FROM},
 * {@code DELETE … USING} and {@code INSERT … ON CONFLICT ON CONSTRAINT … DO UPDATE}. As in
 * {@link StatementKindsCaptureIT}: the application sees what the raw driver shows, the tables end
 * the same, the log holds exactly the expected LCRs and replays to the node's tables.
 */
class JoinAndConstraintCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "joins");
    }

    // ------------------------------------------------------------------ UPDATE ... FROM

    @Test
    void updateFrom() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED_ITEMS, SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("join update, SET reads the other table", () -> s.executeUpdate("UPDATE item"
                        + " SET qty = p.amount::int, note = 'priced' FROM price p WHERE p.item_id = item.id AND p.amount < 10"));
                t.value("a join of a table and VALUES, target aliased", () -> s.executeUpdate("UPDATE item AS i"
                        + " SET name = i.name || v.tag, qty = i.qty + p.amount::int"
                        + " FROM price p JOIN (VALUES (1, '+one'), (2, '+two')) AS v(id, tag) ON v.id = p.item_id"
                        + " WHERE p.item_id = i.id"));
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE item SET qty = qty + ?"
                    + " FROM (SELECT item_id FROM price WHERE amount > ?) AS big WHERE big.item_id = item.id AND item.id <> ?")) {
                int[][] runs = {{100, 5, 1}, {1000, 1, 2}};
                for (int[] r : runs) {
                    ps.setInt(1, r[0]);
                    ps.setInt(2, r[1]);
                    ps.setInt(3, r[2]);
                    t.value("prepared, parameters in SET, FROM and WHERE: " + r[0], ps::executeUpdate);
                }
            }
            try (Statement s = c.createStatement()) {
                t.value("the target again under another alias", () -> s.executeUpdate("UPDATE item SET note = o.name"
                        + " FROM item o WHERE o.id = item.id + 1 AND item.id >= 3"));
                t.value("RETURNING the other table's columns and *", () -> rows(s.executeQuery("UPDATE item SET qty = 0"
                        + " FROM price p WHERE p.item_id = item.id AND p.amount > 10 RETURNING item.id, p.amount, *")));
                t.value("no row", () -> s.executeUpdate("UPDATE item SET qty = -1 FROM price p"
                        + " WHERE p.item_id = item.id AND p.amount > 100"));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", qty=" + i(1) + ", note=" + s(null), "qty=" + i(10) + ", note=" + s("priced"),
                                "qty, note"),
                        update("item", "id=" + i(4) + ", qty=" + i(4) + ", note=" + s("y"), "qty=" + i(3) + ", note=" + s("priced"),
                                "qty, note")),
                tx(update("item", "id=" + i(1) + ", name=" + s("a") + ", qty=" + i(10), "name=" + s("a+one") + ", qty=" + i(20),
                                "name, qty"),
                        update("item", "id=" + i(2) + ", name=" + s("b") + ", qty=" + i(2), "name=" + s("b+two") + ", qty=" + i(14),
                                "name, qty")),
                tx(update("item", "id=" + i(2) + ", qty=" + i(14), "qty=" + i(114), "qty")),
                tx(update("item", "id=" + i(1) + ", qty=" + i(20), "qty=" + i(1020), "qty"),
                        update("item", "id=" + i(4) + ", qty=" + i(3), "qty=" + i(1003), "qty")),
                tx(update("item", "id=" + i(3) + ", note=" + s(null), "note=" + s("d"), "note"),
                        update("item", "id=" + i(4) + ", note=" + s("priced"), "note=" + s("e"), "note")),
                tx(update("item", "id=" + i(2) + ", qty=" + i(114), "qty=" + i(0), "qty")));
        box.assertLogReplays(KEYS, "item");
    }

    /**
     * A target row the join matches several times is updated once, with one of the joined rows
     * (PostgreSQL does not say which): one LCR, whose new values are the ones written.
     */
    @Test
    void aTargetRowTheJoinMatchesSeveralTimesHasOneLcrWithTheValuesWritten() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED_ITEMS, SEED_PRICES);
        int count;
        try (Connection c = box.capturing(); Statement s = c.createStatement()) {
            count = s.executeUpdate("UPDATE item SET qty = p.amount::int FROM price p WHERE p.item_id <= item.id AND item.id = 4");
        }
        assertThat(count).isEqualTo(1);
        List<LoggedLcr> log = box.log();
        assertThat(log).hasSize(1);
        long written;
        try (Connection raw = box.raw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT qty FROM item WHERE id = 4")) {
            rs.next();
            written = rs.getLong(1);
        }
        assertThat(written).isIn(10L, 12L, 3L);
        assertThat(log.get(0).brief()).isEqualTo(update("item", "id=" + i(4) + ", qty=" + i(4), "qty=" + i(written), "qty"));
        box.assertLogReplays(KEYS, "item");
    }

    /** A FROM table named like a column of the target: its rows are still its rows, not the column. */
    @Test
    void aFromTableNamedLikeATargetColumn() throws Exception {
        Sandbox box = pair.sandbox(ITEM, "CREATE TABLE note (item_id int PRIMARY KEY, body text NOT NULL)");
        box.seed(SEED_ITEMS, "INSERT INTO note VALUES (1, 'n1'), (3, 'n3'), (5, 'n5')");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("update", () -> s.executeUpdate("UPDATE item SET note = note.body FROM note"
                        + " WHERE note.item_id = item.id AND item.id < 5"));
                t.value("delete returning", () -> rows(s.executeQuery("DELETE FROM item USING note"
                        + " WHERE note.item_id = item.id AND note.body = 'n5' RETURNING note.body, item.note")));
            }
        });
        box.assertSameContents("item");
        box.assertTransactions(
                tx(update("item", "id=" + i(1) + ", note=" + s(null), "note=" + s("n1"), "note"),
                        update("item", "id=" + i(3) + ", note=" + s(null), "note=" + s("n3"), "note")),
                tx(delete("item", item(5, "e", 5, null))));
        box.assertLogReplays(KEYS, "item");
    }

    // ------------------------------------------------------------------ DELETE ... USING

    @Test
    void deleteUsing() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED_ITEMS, SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("join delete", () -> s.executeUpdate("DELETE FROM item USING price p"
                        + " WHERE p.item_id = item.id AND p.amount < 10"));
                t.value("a row the join matches four times", () -> s.executeUpdate("DELETE FROM item AS i USING price p, price q"
                        + " WHERE p.item_id <= i.id AND q.item_id <= i.id AND i.id >= 5"));
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM item USING price p"
                    + " WHERE p.item_id = item.id - ? AND p.amount > ? RETURNING item.id, p.amount")) {
                ps.setInt(1, 1);
                ps.setInt(2, 10);
                t.value("prepared, RETURNING the other table's column", () -> rows(ps.executeQuery()));
            }
            try (Statement s = c.createStatement()) {
                t.value("RETURNING *", () -> rows(s.executeQuery("DELETE FROM item USING price p"
                        + " WHERE p.item_id = 2 AND item.id = 2 RETURNING *")));
                t.value("no row", () -> s.executeUpdate("DELETE FROM item USING price p WHERE p.item_id = item.id"));
            }
        });
        box.assertSameContents("item", "price");
        box.assertTransactions(
                tx(delete("item", item(1, "a", 1, null)), delete("item", item(4, "d", 4, "y"))),
                tx(delete("item", item(5, "e", 5, null))),
                tx(delete("item", item(3, "c", 3, null))),
                tx(delete("item", item(2, "b", 2, "x"))));
        box.assertLogReplays(KEYS, "item");
    }

    // ------------------------------------------------------------------ ON CONFLICT ON CONSTRAINT

    static final String PAIR = "CREATE TABLE pair (id int PRIMARY KEY, a int NOT NULL, b text NOT NULL, n int,"
            + " CONSTRAINT \"Pair AB\" UNIQUE (b, a))";

    @Test
    void onConflictOnConstraintDoUpdate() throws Exception {
        Sandbox box = pair.sandbox(PAIR);
        box.seed("INSERT INTO pair VALUES (1, 1, 'x', 0), (2, 2, 'y', 0)");
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("a two-column unique constraint, quoted", () -> s.executeUpdate("INSERT INTO pair (id, a, b, n)"
                        + " VALUES (3, 1, 'x', 5), (4, 3, 'z', 1) ON CONFLICT ON CONSTRAINT \"Pair AB\""
                        + " DO UPDATE SET n = pair.n + EXCLUDED.n"));
                t.value("DO UPDATE ... WHERE, nothing to update", () -> s.executeUpdate("INSERT INTO pair (id, a, b)"
                        + " VALUES (9, 1, 'x') ON CONFLICT ON CONSTRAINT \"Pair AB\" DO UPDATE SET n = 0 WHERE pair.n > 100"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO pair (id, a, b) VALUES (?, ?, ?)"
                    + " ON CONFLICT ON CONSTRAINT pair_pkey DO UPDATE SET b = EXCLUDED.b")) {
                Object[][] runs = {{2, 9, "w"}, {5, 5, "v"}};
                for (Object[] r : runs) {
                    ps.setInt(1, (Integer) r[0]);
                    ps.setInt(2, (Integer) r[1]);
                    ps.setString(3, (String) r[2]);
                    t.value("prepared, the primary key: " + r[0], ps::executeUpdate);
                }
            }
        });
        box.assertSameContents("pair");
        box.assertTransactions(
                tx(update("pair", "id=" + i(1) + ", n=" + i(0), "n=" + i(5), "n"),
                        insert("pair", "id=" + i(4) + ", a=" + i(3) + ", b=" + s("z") + ", n=" + i(1), "id, a, b, n")),
                tx(update("pair", "id=" + i(2) + ", b=" + s("y"), "b=" + s("w"), "b")),
                tx(insert("pair", "id=" + i(5) + ", a=" + i(5) + ", b=" + s("v") + ", n=" + i(null), "id, a, b")));
        box.assertLogReplays(Map.of("pair", List.of("id")), "pair");
    }

    /** The error PostgreSQL gives, 42704 naming the constraint; nothing runs, nothing is logged. */
    @Test
    void anUnknownConstraintIsPostgresqlsError() throws Exception {
        Sandbox box = pair.sandbox(PAIR);
        String sql = "INSERT INTO pair (id, a, b) VALUES (1, 1, 'x') ON CONFLICT ON CONSTRAINT nope DO UPDATE SET n = 0";
        try (Connection raw = box.mirror(); Statement s = raw.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("constraint \"nope\" for table \"pair\" does not exist")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
        }
        try (Connection c = box.capturing(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate(sql)).isInstanceOf(SQLException.class)
                    .hasMessage("constraint \"nope\" for table \"pair\" does not exist")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
            assertThatThrownBy(() -> c.prepareStatement(sql)).extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("42704");
        }
        assertThat(box.nodeContents("pair")).isEmpty();
        assertThat(box.log()).isEmpty();
    }
}
