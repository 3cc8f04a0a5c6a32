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
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 8.3 on PostgreSQL: WITH queries that change rows ({@code WITH x AS (DELETE … RETURNING …) …})
 * and a WITH before INSERT, UPDATE or DELETE, as Hibernate writes them for bulk HQL on a JOINED
 * hierarchy. Through {@code jdbc:repl:} on the node and the raw driver on the mirror: the same
 * results, the same tables, exactly the expected LCRs in the order the statement lists its changes,
 * a log that replays to the node's tables, nothing logged for rolled-back work.
 */
class WithQueriesCaptureIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String ITEM = "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, qty int, note text)";
    static final String DETAIL = "CREATE TABLE detail (id int PRIMARY KEY REFERENCES item, size int NOT NULL)";
    static final String SCRATCH = "CREATE TABLE scratch (id int)";
    static final String SEED = "INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x'), (3, 'c', 3, NULL),"
            + " (4, 'd', 4, 'y'), (5, 'e', 5, NULL)";
    static final String SEED_DETAILS = "INSERT INTO detail VALUES (1, 10), (2, 20), (4, 40)";
    static final Map<String, List<String>> KEYS = Map.of("item", List.of("id"), "detail", List.of("id"));

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "withq");
    }

    /** Hibernate's bulk delete on a JOINED hierarchy: the child's rows, then the parent's, one statement. */
    @Test
    void deletesOfAChildAndItsParentInOneStatement() throws Exception {
        deletesOfAChildAndItsParent(Map.of());
    }

    /** The same with signed LCRs (repl.log.key): each log insert signs its rows, still in the order written. */
    @Test
    void deletesOfAChildAndItsParentSigned() throws Exception {
        deletesOfAChildAndItsParent(Map.of("repl.log.key", "correct horse battery staple"));
    }

    private void deletesOfAChildAndItsParent(Map<String, String> repl) throws Exception {
        Sandbox box = pair.sandbox(ITEM, DETAIL);
        box.seed(SEED, SEED_DETAILS);
        box.compare(repl, (c, t) -> {
            try (PreparedStatement ps = c.prepareStatement("with id_cte (id) as materialized (select i.id from item i"
                    + " left join detail d on d.id = i.id where i.qty <= ?), delete_detail (id) as (delete from detail d"
                    + " where d.id in (select id.id from id_cte id) returning id), delete_item (id) as (delete from item i"
                    + " where i.id in (select id.id from id_cte id) returning id) select count(*) from id_cte id")) {
                ps.setInt(1, 2);
                t.value("its rows", () -> rows(ps.executeQuery()));
                ps.setInt(1, 2);
                t.value("again: none", () -> rows(ps.executeQuery()));
            }
        });
        box.assertSameContents("item", "detail");
        box.assertTransactions(
                tx(delete("detail", "id=" + i(1) + ", size=" + i(10)), delete("detail", "id=" + i(2) + ", size=" + i(20)),
                        delete("item", item(1, "a", 1, null)), delete("item", item(2, "b", 2, "x"))));
        assertThat(tablesInLogOrder(box)).as("the child's rows first, as written: a peer applies them one by one")
                .containsExactly("detail", "detail", "item", "item");
        box.assertLogReplays(KEYS, "item", "detail");
    }

    /** Hibernate's bulk update: the parent's and the child's columns, each table its own WITH query. */
    @Test
    void updatesOfSeveralTablesWithTheirRowsReturned() throws Exception {
        Sandbox box = pair.sandbox(ITEM, DETAIL);
        box.seed(SEED, SEED_DETAILS);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("execute", () -> s.execute("WITH ids AS MATERIALIZED (SELECT id FROM detail WHERE size >= 20),"
                        + " d AS (UPDATE detail SET size = size + 1 WHERE id IN (SELECT id FROM ids) RETURNING *),"
                        + " i AS (UPDATE item SET note = 'big', qty = qty * 10 WHERE id IN (SELECT id FROM ids)"
                        + " RETURNING id, qty) SELECT d.id, d.size, i.qty FROM d JOIN i ON i.id = d.id ORDER BY 1"));
                t.value("its rows", () -> rows(s.getResultSet()));
                t.value("update count", s::getUpdateCount);
            }
        });
        box.assertSameContents("item", "detail");
        box.assertTransactions(
                tx(update("detail", "id=" + i(2) + ", size=" + i(20), "size=" + i(21), "size"),
                        update("detail", "id=" + i(4) + ", size=" + i(40), "size=" + i(41), "size"),
                        update("item", "id=" + i(2) + ", qty=" + i(2) + ", note=" + s("x"),
                                "qty=" + i(20) + ", note=" + s("big"), "qty, note"),
                        update("item", "id=" + i(4) + ", qty=" + i(4) + ", note=" + s("y"),
                                "qty=" + i(40) + ", note=" + s("big"), "qty, note")));
        assertThat(tablesInLogOrder(box)).containsExactly("detail", "detail", "item", "item");
        box.assertLogReplays(KEYS, "item", "detail");
    }

    /**
     * A WITH before the statement that changes rows, with parameters in the WITH query and the
     * statement; RETURNING and update counts as the raw driver gives them; a WITH query that changes
     * a table that is not replicated (a temporary one) stays as written.
     */
    @Test
    void aWithBeforeInsertUpdateAndDelete() throws Exception {
        Sandbox box = pair.sandbox(ITEM, DETAIL);
        box.seed(SEED, SEED_DETAILS);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TEMPORARY TABLE tmp_ids (id int)");
                t.value("insert from a WITH", () -> s.executeUpdate("WITH src AS (SELECT id + 10 AS id, name FROM item"
                        + " WHERE id <= 2) INSERT INTO item (id, name) SELECT id, name || '!' FROM src"));
                try (PreparedStatement ps = c.prepareStatement("WITH big AS (SELECT id FROM item WHERE qty >= ?)"
                        + " UPDATE item SET note = ? WHERE id IN (SELECT id FROM big) RETURNING id, note")) {
                    ps.setInt(1, 4);
                    ps.setString(2, "n");
                    t.value("update returning", () -> rows(ps.executeQuery()));
                }
                t.value("delete with a change of a table not replicated", () -> s.executeUpdate(
                        "WITH kept AS (INSERT INTO tmp_ids VALUES (11) RETURNING id) DELETE FROM item"
                                + " WHERE id > 10 AND id NOT IN (SELECT id FROM kept)"));
                t.value("what the temporary table got", () -> rows(s.executeQuery("SELECT * FROM tmp_ids")));
                s.execute("DROP TABLE tmp_ids");
            }
        });
        box.assertSameContents("item", "detail");
        box.assertTransactions(
                tx(insert("item", item(11, "a!", null, null), "id, name"), insert("item", item(12, "b!", null, null), "id, name")),
                tx(update("item", "id=" + i(4) + ", note=" + s("y"), "note=" + s("n"), "note"),
                        update("item", "id=" + i(5) + ", note=" + s(null), "note=" + s("n"), "note")),
                tx(delete("item", item(12, "b!", null, null))));
        box.assertLogReplays(KEYS, "item", "detail");
    }

    /** An INSERT in a WITH query, its rows read by the main statement; rollback takes every LCR back. */
    @Test
    void anInsertInAWithQueryAndRollback() throws Exception {
        Sandbox box = pair.sandbox(ITEM, DETAIL);
        box.seed(SEED);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert into both", () -> s.executeUpdate("WITH n AS (INSERT INTO item VALUES (7, 'g', 7, NULL)"
                        + " RETURNING id) INSERT INTO detail SELECT id, 70 FROM n"));
                c.setAutoCommit(false);
                t.value("rolled back", () -> rows(s.executeQuery("WITH g AS (DELETE FROM detail RETURNING id),"
                        + " h AS (UPDATE item SET qty = 0 RETURNING id) SELECT (SELECT count(*) FROM g), (SELECT count(*) FROM h)")));
                c.rollback();
                c.setAutoCommit(true);
            }
        });
        box.assertSameContents("item", "detail");
        box.assertTransactions(
                tx(insert("item", item(7, "g", 7, null), ITEM_COLUMNS), insert("detail", "id=" + i(7) + ", size=" + i(70), "id, size")));
        box.assertLogReplays(KEYS, "item", "detail");
    }

    /** The table of each LCR, in log position order. */
    private static List<String> tablesInLogOrder(Sandbox box) throws SQLException {
        return box.briefs().stream().map(b -> b.split(" ")[1]).toList();
    }

    static List<String> rows(ResultSet rs) throws SQLException {
        try (rs) {
            List<String> out = new ArrayList<>(Rows.columns(rs.getMetaData()));
            out.addAll(Rows.of(rs));
            return out;
        }
    }
}
