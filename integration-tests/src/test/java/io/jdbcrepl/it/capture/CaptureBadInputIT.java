package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.Rows;
import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.jdbcrepl.it.capture.Expect.ddl;
import static io.jdbcrepl.it.capture.Expect.i;
import static io.jdbcrepl.it.capture.Expect.insert;
import static io.jdbcrepl.it.capture.Expect.item;
import static io.jdbcrepl.it.capture.Expect.s;
import static io.jdbcrepl.it.capture.Expect.tx;
import static io.jdbcrepl.it.capture.Expect.update;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.1 and issue 3's bad input: statements the driver cannot capture fail before they run
 * (0AR01, naming repl.unsupported) and run uncaptured with {@code repl.unsupported=passthrough};
 * unknown columns in {@code repl.loggroup}, {@code repl.timestamp}, handler lists and
 * {@code repl.key} are clear errors with nothing executed; tables that are not replicated, queries
 * and DDL pass through untouched.
 */
class CaptureBadInputIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    static final String ITEM = "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL, qty int, note text)";
    static final String PRICE = "CREATE TABLE price (item_id int PRIMARY KEY, amount numeric(8,2) NOT NULL)";
    static final String AUDIT = "CREATE TABLE audit (item_id int, what text)"; // no key: keyed by every column if replicated
    static final String SEED = "INSERT INTO item VALUES (1, 'a', 1, NULL), (2, 'b', 2, 'x')";
    static final String SEED_PRICES = "INSERT INTO price VALUES (1, 9.50), (2, 12.00)";

    private static CapturePair pair;

    @BeforeAll
    static void databases() throws SQLException {
        pair = CapturePair.create(DATABASES, "badinput");
    }

    static Stream<String> uncapturable() {
        return Stream.of(
                "INSERT INTO item (id, name, qty) VALUES (1, 'x', DEFAULT) ON CONFLICT (id) DO UPDATE SET name = 'y'",
                "UPDATE item SET qty = g FROM generate_series(1, 2) AS g WHERE g = item.id",
                "UPDATE item SET qty = 0 FROM price JOIN price AS p2 USING (item_id) WHERE price.item_id = item.id",
                "DELETE FROM item USING (SELECT item_id FROM price) AS p WHERE p.item_id = item.id",
                "MERGE INTO item i USING price p ON p.item_id = i.id WHEN MATCHED THEN UPDATE SET qty = 0",
                // WITH before MERGE, an upsert inside WITH, a WITH inside a WITH query (other WITH forms are captured)
                "WITH x AS (SELECT 1 AS id) MERGE INTO item i USING x ON x.id = i.id WHEN MATCHED THEN UPDATE SET qty = 0",
                "WITH x AS (INSERT INTO item VALUES (1, 'c', 3, NULL) ON CONFLICT (id) DO UPDATE SET qty = 0 RETURNING id)"
                        + " SELECT * FROM x",
                "WITH d AS (WITH y AS (SELECT 1 AS id) DELETE FROM item WHERE id IN (SELECT id FROM y) RETURNING *)"
                        + " SELECT * FROM d",
                "INSERT INTO item VALUES (3, 'c', 3, NULL); UPDATE item SET qty = 0",
                "UPDATE item SET (qty, note) = (SELECT 7, 'row') WHERE id = 1",
                "EXPLAIN ANALYZE UPDATE item SET qty = 0");
    }

    @ParameterizedTest
    @MethodSource("uncapturable")
    void uncapturableStatementsFailBeforeTheyRun(String sql) throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED, SEED_PRICES);
        List<String> before = box.nodeContents("item");
        try (Connection c = box.capturing()) {
            try (Statement s = c.createStatement()) {
                assertRefused(() -> s.execute(sql), sql + " (plain, autocommit)");
            }
            assertRefused(() -> {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ps.execute();
                }
            }, sql + " (prepared)");
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO item VALUES (10, 'before', 0, NULL)");
                assertRefused(() -> s.execute(sql), sql + " (in a transaction)");
                // it never reached the server, so the transaction is not aborted
                s.executeUpdate("INSERT INTO item VALUES (11, 'after', 0, NULL)");
            }
            c.commit();
            c.setAutoCommit(true);
        }
        assertThat(box.nodeContents("item")).as("item after %s", sql)
                .containsExactlyElementsOf(Stream.concat(before.stream(), Stream.of("(10,before,0,)", "(11,after,0,)")).sorted().toList());
        box.assertTransactions(tx(insert("item", item(10, "before", 0, null), "id, name, qty, note"),
                insert("item", item(11, "after", 0, null), "id, name, qty, note")));
    }

    @Test
    void anUncapturableStatementInABatchFailsTheBatchBeforeAnyOfItRuns() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED, SEED_PRICES);
        List<String> before = box.nodeContents("item");
        try (Connection c = box.capturing(); Statement s = c.createStatement()) {
            assertRefused(() -> {
                s.addBatch("UPDATE item SET qty = 5 WHERE id = 1");
                s.addBatch("UPDATE item SET qty = g FROM generate_series(1, 2) AS g WHERE g = item.id");
                s.addBatch("INSERT INTO item VALUES (3, 'c', 3, NULL)");
                s.executeBatch();
            }, "a batch with UPDATE ... FROM a function");
        }
        assertThat(box.nodeContents("item")).isEqualTo(before);
        assertThat(box.log()).isEmpty();
    }

    @FunctionalInterface
    private interface Attempt {
        void run() throws Exception;
    }

    private static void assertRefused(Attempt attempt, String what) {
        SQLException e = null;
        try {
            attempt.run();
        } catch (SQLException thrown) {
            e = thrown;
        } catch (Exception other) {
            throw new AssertionError(what + ": unexpected " + other, other);
        }
        assertThat((Object) e).as("%s must be refused", what).isNotNull();
        SQLException cause = e;
        if (cause instanceof java.sql.BatchUpdateException && cause.getNextException() != null) cause = cause.getNextException();
        assertThat(cause.getSQLState()).as("SQLState of the refusal of %s: %s", what, cause.getMessage()).isEqualTo("0AR01");
        assertThat(cause.getMessage()).as("message of the refusal of %s", what).contains("repl.unsupported");
    }

    @ParameterizedTest
    @MethodSource("uncapturable")
    void passthroughRunsThemUncaptured(String sql) throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED, SEED_PRICES);
        box.compare(Map.of("repl.unsupported", "passthrough"), (c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("execute", () -> s.execute(sql));
                t.value("update count", s::getUpdateCount);
                // EXPLAIN ANALYZE prints timings: only its number of lines is comparable
                t.value("result", () -> s.getResultSet() == null ? "none"
                        : sql.startsWith("EXPLAIN") ? Rows.of(s.getResultSet()).size() + " lines" : Rows.of(s.getResultSet()).toString());
            }
        });
        box.assertSameContents("item", "price");
        assertThat(box.log()).as("nothing is logged for %s", sql).isEmpty();
    }

    // ------------------------------------------------------------------ unknown columns in the configuration

    static Stream<String[]> unknownColumns() {
        return Stream.of(
                new String[] {"repl.loggroup.item.g", "qty,nope", "repl.loggroup.item.g"},
                new String[] {"repl.timestamp.item", "nope", "repl.timestamp.item"},
                new String[] {"repl.key.item", "nope", "repl.key.item"});
    }

    @ParameterizedTest
    @MethodSource("unknownColumns")
    void unknownColumnsInTheConfigurationAreClearErrors(String key, String value, String named) throws Exception {
        assertUnknownColumnRefused(Map.of(key, value), named);
    }

    @Test
    void unknownColumnInAHandlersListIsAClearError() throws Exception {
        assertUnknownColumnRefused(Map.of("repl.handler.h.table", "item", "repl.handler.h.type", "OVERWRITE",
                "repl.handler.h.columns", "qty,nope"), "repl.handler.h.columns");
    }

    private static void assertUnknownColumnRefused(Map<String, String> repl, String named) throws Exception {
        Sandbox box = pair.sandbox(ITEM);
        box.seed(SEED);
        List<String> before = box.nodeContents("item");
        String[] statements = {"INSERT INTO item VALUES (3, 'c', 3, NULL)", "UPDATE item SET qty = 9", "DELETE FROM item WHERE id = 1"};
        for (String sql : statements) {
            SQLException e = null;
            try (Connection c = box.capturing(repl); Statement s = c.createStatement()) {
                s.executeUpdate(sql);
            } catch (SQLException thrown) {
                e = thrown;
            }
            assertThat((Object) e).as("%s with %s", sql, repl).isNotNull();
            assertThat(e.getMessage()).as("the error of %s with %s names the key and the column", sql, repl)
                    .contains(named).contains("nope");
        }
        assertThat(box.nodeContents("item")).as("nothing ran").isEqualTo(before);
        assertThat(box.log()).as("nothing was logged").isEmpty();
    }

    // ------------------------------------------------------------------ what is not captured

    @Test
    void tablesThatAreNotReplicatedPassThroughUnlogged() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE, AUDIT, "CREATE TABLE audit_old (n int)");
        box.seed(SEED, SEED_PRICES);
        box.compare(Map.of("repl.exclude", "audit*", "repl.tables", "*.item," + box.schema() + ".audit"), (c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("insert into excluded", () -> s.executeUpdate("INSERT INTO audit VALUES (1, 'x'), (2, 'y')"));
                t.value("insert select from a replicated table", () -> s.executeUpdate("INSERT INTO audit SELECT id, name FROM item"));
                t.value("update excluded", () -> s.executeUpdate("UPDATE audit SET what = 'z' WHERE item_id = 1"));
                t.value("delete excluded", () -> s.executeUpdate("DELETE FROM audit WHERE item_id = 2"));
                t.value("truncate excluded", () -> s.executeUpdate("TRUNCATE audit_old"));
                t.value("upsert on a table not listed", () -> s.executeUpdate("INSERT INTO price VALUES (1, 1)"
                        + " ON CONFLICT (item_id) DO UPDATE SET amount = EXCLUDED.amount"));
                t.value("update of a table not listed", () -> s.executeUpdate("UPDATE price SET amount = amount + 1"));
                t.value("replicated", () -> s.executeUpdate("UPDATE item SET qty = 10 WHERE id = 1"));
            }
        });
        box.assertSameContents("item", "price", "audit", "audit_old");
        box.assertTransactions(tx(update("item", "id=" + i(1) + ", qty=" + i(1), "qty=" + i(10), "qty")));
    }

    @Test
    void queriesAndDdlAreUntouchedAndDdlIsSeen() throws Exception {
        Sandbox box = pair.sandbox(ITEM, PRICE);
        box.seed(SEED, SEED_PRICES);
        box.compare((c, t) -> {
            try (Statement s = c.createStatement()) {
                t.value("query", () -> Rows.of(s.executeQuery("SELECT id, name FROM item ORDER BY id")));
                t.value("locking query", () -> Rows.of(s.executeQuery("SELECT id FROM item WHERE id = 1 FOR UPDATE")));
                t.value("query with a CTE", () -> Rows.of(s.executeQuery("WITH x AS (SELECT max(id) AS m FROM item) SELECT m FROM x")));
                t.value("explain without analyze", () -> Rows.of(s.executeQuery("EXPLAIN (COSTS OFF) UPDATE item SET qty = 0")).size() > 0);
                t.value("create table", () -> s.execute("CREATE TABLE extra (id int PRIMARY KEY, v text)"));
                t.value("alter table", () -> s.execute("ALTER TABLE item ADD COLUMN tag int DEFAULT 5"));
                t.value("create index", () -> s.execute("CREATE INDEX item_name ON item (name)"));
                t.value("comment", () -> s.execute("COMMENT ON TABLE item IS 'items'"));
                t.value("analyze", () -> s.execute("ANALYZE item"));
                t.value("insert after alter", () -> s.executeUpdate("INSERT INTO item (id, name) VALUES (3, 'c')"));
                t.value("update after alter", () -> s.executeUpdate("UPDATE item SET tag = 6 WHERE id = 1"));
                t.value("insert into the new table", () -> s.executeUpdate("INSERT INTO extra VALUES (1, 'e')"));
            }
        });
        box.assertSameContents("item", "price", "extra");
        String schema = box.schema(); // the DDL LCRs (SPEC 8.3), each a transaction of its own in auto-commit
        box.assertTransactions(
                tx(ddl("extra", "CREATE TABLE extra (id int PRIMARY KEY, v text)", "CREATE TABLE", schema)),
                tx(ddl("item", "ALTER TABLE item ADD COLUMN tag int DEFAULT 5", "ALTER TABLE", schema)),
                tx(ddl("item", "CREATE INDEX item_name ON item (name)", "CREATE INDEX", schema)),
                tx(insert("item", item(3, "c", null, null) + ", tag=" + i(5), "id, name")),
                tx(update("item", "id=" + i(1) + ", tag=" + i(5), "tag=" + i(6), "tag")),
                tx(insert("extra", "id=" + i(1) + ", v=" + s("e"), "id, v")));
    }
}
