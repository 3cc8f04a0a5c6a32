package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.CaptureSettings;
import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.sql.Analysis;
import io.jdbcrepl.sql.ColumnRef;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.Dml;
import io.jdbcrepl.sql.Opaque;
import io.jdbcrepl.sql.SqlClassifier;
import io.jdbcrepl.lcr.ValueType;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The PostgreSQL rewrites of UPDATE … FROM, DELETE … USING, ON CONFLICT ON CONSTRAINT and INSERT … SELECT. */
class PostgresCaptureTest {

    private static final TableInfo ITEM = new TableInfo("s", "item", List.of(
            new ColumnInfo("id", ValueType.INTEGER, "int4", false, false),
            new ColumnInfo("name", ValueType.STRING, "text", false, false),
            new ColumnInfo("qty", ValueType.INTEGER, "int4", true, false),
            new ColumnInfo("note", ValueType.STRING, "text", true, false)), List.of("id"),
            Map.of("item_pkey", List.of("id"), "item_name_qty", List.of("name", "qty")));
    private static final PostgresCapture CAPTURE = new PostgresCapture("repl_log", "n1");

    private static Dml dml(String sql) {
        Analysis a = SqlClassifier.analyze(sql, Dialect.named("postgresql"));
        assertThat(a).as(sql).isInstanceOf(Dml.class);
        return (Dml) a;
    }

    private static String plan(String sql) throws SQLException {
        return CAPTURE.plan(dml(sql), ITEM, CaptureSettings.DEFAULT).sql();
    }

    /** The SQL with everything but the parameter markers removed: their order is the application's. */
    private static long markers(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }

    @Test
    void theLockingReadTakesTheLockTheUpdateWould() throws SQLException {
        TableInfo indexed = new TableInfo("s", "item", ITEM.columns(), List.of("id"), Map.of(), java.util.Set.of("id", "name"));
        // Non-key columns: FOR NO KEY UPDATE, as the UPDATE itself, so foreign-key checks on the row are not blocked.
        assertThat(CAPTURE.plan(dml("UPDATE item SET qty = qty + ?, note = ? WHERE id = ?"), indexed, CaptureSettings.DEFAULT).sql())
                .contains(" FOR NO KEY UPDATE OF item)").doesNotContain(" FOR UPDATE");
        // A column of a unique index, or indexes not known: FOR UPDATE.
        assertThat(CAPTURE.plan(dml("UPDATE item SET name = ? WHERE id = ?"), indexed, CaptureSettings.DEFAULT).sql())
                .contains(" FOR UPDATE OF item)");
        assertThat(CAPTURE.plan(dml("UPDATE item SET id = id + 1"), indexed, CaptureSettings.DEFAULT).sql())
                .contains(" FOR UPDATE OF item)");
        assertThat(plan("UPDATE item SET qty = ? WHERE id = ?")).contains(" FOR UPDATE OF item)");
        // ON CONFLICT DO UPDATE: its rows are locked first, as strongly as its update would lock them.
        assertThat(CAPTURE.plan(dml("INSERT INTO item (id, name, qty) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE"
                + " SET qty = EXCLUDED.qty"), indexed, CaptureSettings.DEFAULT).sql()).contains(" FOR NO KEY UPDATE OF item)");
        assertThat(CAPTURE.plan(dml("INSERT INTO item (id, name, qty) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE"
                + " SET name = EXCLUDED.name"), indexed, CaptureSettings.DEFAULT).sql()).contains(" FOR UPDATE OF item)");
    }

    @Test
    void anUpdateOfATableWithoutKeyChangesTheRowsItLockedByCtid() throws SQLException {
        TableInfo history = new TableInfo("s", "history", List.of(
                new ColumnInfo("h_id", ValueType.INTEGER, "int4", true, false),
                new ColumnInfo("note", ValueType.STRING, "text", true, false),
                new ColumnInfo("doc", ValueType.JSON, "json", true, false)), List.of()).keyedByComparableColumns();
        assertThat(history.key()).containsExactly("h_id", "note");
        String sql = CAPTURE.plan(dml("UPDATE history SET note = ? WHERE h_id = ?"), history, CaptureSettings.DEFAULT).sql();
        // identical rows are told apart by where they are, not by their (equal, maybe NULL) values
        assertThat(sql).contains(", history.ctid AS repl_ctid FROM history WHERE h_id = ?")
                .contains("WHERE history.ctid = repl_old.repl_ctid RETURNING");
        assertThat(markers(sql)).isEqualTo(2);
        assertThatThrownBy(() -> new TableInfo("s", "docs", List.of(new ColumnInfo("doc", ValueType.JSON, "json", true,
                false)), List.of()).keyedByComparableColumns()).hasMessageContaining("s.docs").hasMessageContaining("repl.key");
    }

    @Test
    void fromListRelationsAreNamedAsWritten() {
        assertThat(dml("UPDATE t SET a = u.a FROM u JOIN v ON v.id = u.vid, w WHERE t.id = u.id").fromRelations().stream().map(r -> r.name() + (r.table() ? "" : "(q)")).toList())
                .containsExactly("u", "v", "w");
        assertThat(dml("UPDATE t SET a = s.x FROM (SELECT 1 AS x) AS s, (VALUES (1, 'a')) AS v(id, tag), hr.u"
                + " LEFT JOIN \"Odd\" o ON o.id = u.id WHERE t.id = v.id").fromRelations().stream().map(r -> r.name() + (r.table() ? "" : "(q)")).toList())
                .containsExactly("s(q)", "v(q)", "u", "o");
        assertThat(dml("UPDATE t SET a = 1 FROM (u JOIN v ON v.id = u.id) WHERE t.id = u.id").fromRelations().stream().map(r -> r.name() + (r.table() ? "" : "(q)")).toList())
                .containsExactly("u", "v");
        assertThat(dml("DELETE FROM orders AS o USING customers c, regions WHERE o.cust = c.id").fromRelations().stream().map(r -> r.name() + (r.table() ? "" : "(q)")).toList())
                .containsExactly("c", "regions");
        assertThat(dml("UPDATE t SET a = 1 WHERE id = 2").fromRelations().stream().map(r -> r.name() + (r.table() ? "" : "(q)")).toList()).isEmpty();
    }

    @Test
    void fromListsWhoseRelationsCannotBeNamedAreRefused() {
        for (String sql : List.of("UPDATE t SET a = g FROM generate_series(1, 3) AS g WHERE g = t.id",
                "UPDATE t SET a = 1 FROM u JOIN v USING (id) WHERE t.id = u.id",
                "UPDATE t SET a = 1 FROM u NATURAL JOIN v WHERE t.id = u.id",
                "UPDATE t SET a = j.x FROM (u JOIN v ON v.id = u.id) AS j WHERE t.id = j.id")) {
            Analysis a = SqlClassifier.analyze(sql, Dialect.named("postgresql"));
            assertThat(a).as(sql).isInstanceOf(Opaque.class);
            assertThat(((Opaque) a).reason()).as(sql).startsWith("UPDATE … FROM can be captured when")
                    .contains("repl.unsupported=passthrough");
            assertThat(((Opaque) a).tablesNamed()).as(sql).extracting(t -> t.name()).containsExactly("t");
        }
    }

    @Test
    void updateFromLocksTheTargetInsideItsFromSubqueryAndCarriesTheOtherRowsWhole() throws Exception {
        String sql = plan("UPDATE item SET qty = p.amount + ?, note = 'x' FROM price p WHERE p.item_id = item.id AND p.amount > ?");
        assertThat(sql).isEqualTo("WITH repl_changed AS (UPDATE item SET \"qty\" = p.amount + ?, \"note\" = 'x'"
                + " FROM (SELECT item.\"id\" AS repl_o1, item.\"qty\" AS repl_o2, item.\"note\" AS repl_o3, coalesce(p.*) AS repl_r1"
                + " FROM item, price p WHERE p.item_id = item.id AND p.amount > ? FOR UPDATE OF item) AS repl_old"
                + " CROSS JOIN LATERAL (SELECT (repl_old.repl_r1).*) AS p"
                + " WHERE item.\"id\" = repl_old.repl_o1 RETURNING item.\"qty\", item.\"note\", repl_old.repl_o1,"
                + " repl_old.repl_o2, repl_old.repl_o3) "
                + "INSERT INTO repl_log (source_node, command_type, schema_name, table_name, old_values, new_values,"
                + " column_types, change_vector) SELECT 'n1', 'UPDATE', 's', 'item',"
                + " json_build_object('id', repl_changed.\"repl_o1\", 'qty', repl_changed.\"repl_o2\", 'note', repl_changed.\"repl_o3\"),"
                + " json_build_object('qty', repl_changed.\"qty\", 'note', repl_changed.\"note\"),"
                + " '{\"id\":\"INTEGER\",\"qty\":\"INTEGER\",\"note\":\"STRING\"}'::json, '[\"qty\",\"note\"]'::json FROM repl_changed");
    }

    @Test
    void updateFromReturningReadsTheOtherRelationsAgain() throws Exception {
        String sql = plan("UPDATE item AS i SET qty = 0 FROM price p, (VALUES (1)) AS v(id) WHERE p.item_id = i.id"
                + " AND v.id = i.id RETURNING i.id, p.amount * ?, *");
        assertThat(sql).contains("FROM (SELECT i.\"id\" AS repl_o1, i.\"qty\" AS repl_o2, coalesce(p.*) AS repl_r1, v AS repl_r2"
                + " FROM item AS i, price p, (VALUES (1)) AS v(id) WHERE")
                .contains("FOR UPDATE OF i) AS repl_old CROSS JOIN LATERAL (SELECT (repl_old.repl_r1).*) AS p"
                        + " CROSS JOIN LATERAL (SELECT (repl_old.repl_r2).*) AS v WHERE")
                .endsWith(" SELECT i.id, p.amount * ?, i.\"id\", i.\"name\", i.\"qty\", i.\"note\", p.*, v.*"
                        + " FROM repl_changed AS i CROSS JOIN LATERAL (SELECT (i.repl_r1).*) AS p"
                        + " CROSS JOIN LATERAL (SELECT (i.repl_r2).*) AS v");
        assertThat(markers(sql)).isEqualTo(1);
    }

    @Test
    void deleteUsingKeepsItsUsingListAndReturnsTheOtherRowsWhole() throws Exception {
        String sql = plan("DELETE FROM item USING price p WHERE p.item_id = item.id AND p.amount < ? RETURNING p.amount");
        assertThat(sql).startsWith("WITH repl_changed AS (DELETE FROM item USING price p WHERE p.item_id = item.id"
                + " AND p.amount < ? RETURNING item.*, coalesce(p.*) AS repl_r1) , repl_logged AS (INSERT INTO repl_log")
                .contains("SELECT 'n1', 'DELETE', 's', 'item', json_build_object('id', repl_changed.\"id\", 'name',"
                        + " repl_changed.\"name\", 'qty', repl_changed.\"qty\", 'note', repl_changed.\"note\"), NULL")
                .endsWith(" SELECT p.amount FROM repl_changed AS item CROSS JOIN LATERAL (SELECT (item.repl_r1).*) AS p");
    }

    @Test
    void onConflictOnConstraintLocksTheConstraintsColumnsAndKeepsNamingIt() throws Exception {
        String sql = plan("INSERT INTO item (id, name, qty) VALUES (?, ?, ?) ON CONFLICT ON CONSTRAINT item_name_qty"
                + " DO UPDATE SET note = EXCLUDED.name");
        assertThat(sql).contains("WHERE (item.\"name\", item.\"qty\") IN (SELECT repl_v.\"name\", repl_v.\"qty\" FROM repl_v)"
                + " FOR UPDATE OF item")
                .contains("ON CONFLICT ON CONSTRAINT item_name_qty DO UPDATE SET \"note\" = EXCLUDED.name")
                .contains("LEFT JOIN repl_lock ON repl_lock.");
        assertThat(markers(sql)).isEqualTo(3);
        assertThat(plan("INSERT INTO item (id, name) VALUES (1, 'a') ON CONFLICT ON CONSTRAINT \"item_pkey\""
                + " DO UPDATE SET name = 'b'")).contains("ON CONFLICT ON CONSTRAINT \"item_pkey\" DO UPDATE");
    }

    /**
     * Issue 16: DO UPDATE assigning a conflict column leaves the new row without the old key, so the old
     * row is found by the conflict columns its DO UPDATE WHERE handed to RETURNING, not by the new row's.
     */
    @Test
    void doUpdateOfAConflictColumnFindsTheOldRowByTheKeyItHadBeforeTheUpdate() throws Exception {
        String sql = plan("INSERT INTO item (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET id = excluded.id + ?,"
                + " name = excluded.name");
        assertThat(sql).contains("ON CONFLICT (\"id\") DO UPDATE SET \"id\" = excluded.id + ?, \"name\" = excluded.name"
                        + " WHERE set_config('jdbc_repl.upsert_old_key', ROW(item.\"id\")::text, true) IS NOT NULL"
                        + " RETURNING item.*, (item.xmax = 0) AS repl_inserted,"
                        + " current_setting('jdbc_repl.upsert_old_key', true) AS repl_old_key)")
                .contains("LEFT JOIN repl_lock ON ROW(repl_lock.\"repl_o1\")::text = repl_changed.repl_old_key")
                .contains(" FOR UPDATE OF item");
        assertThat(markers(sql)).isEqualTo(3);
        // the application's WHERE stays, whole; a constraint's columns are its conflict columns
        assertThat(plan("INSERT INTO item AS i (id, name, qty) VALUES (1, 'a', 2) ON CONFLICT ON CONSTRAINT item_name_qty"
                + " DO UPDATE SET qty = i.qty + 1 WHERE i.qty < 5 OR i.qty IS NULL"))
                .contains(" WHERE (i.qty < 5 OR i.qty IS NULL) AND set_config('jdbc_repl.upsert_old_key',"
                        + " ROW(i.\"name\", i.\"qty\")::text, true) IS NOT NULL RETURNING")
                .contains("ROW(repl_lock.\"repl_o");
        // other columns: the new row still has the conflict columns it had
        assertThat(plan("INSERT INTO item (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = 'b' WHERE item.qty > 1"))
                .doesNotContain("set_config").contains("DO UPDATE SET \"name\" = 'b' WHERE item.qty > 1 RETURNING")
                .contains("LEFT JOIN repl_lock ON repl_lock.repl_o1 = repl_changed.\"id\"");
    }

    @Test
    void anUnknownConstraintIsPostgresqlsOwnError() {
        assertThatThrownBy(() -> plan("INSERT INTO item (id, name) VALUES (1, 'a') ON CONFLICT ON CONSTRAINT nope"
                + " DO UPDATE SET name = 'b'"))
                .isInstanceOf(SQLException.class)
                .hasMessage("constraint \"nope\" for table \"item\" does not exist")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
        assertThatThrownBy(() -> plan("INSERT INTO item (id, name) VALUES (1, 'a') ON CONFLICT ON CONSTRAINT \"Item_pkey\""
                + " DO UPDATE SET name = 'b'")).hasMessageContaining("\"Item_pkey\"");
    }

    @Test
    void doUpdateWithoutAConflictTargetIsPostgresqlsOwnError() {
        assertThatThrownBy(() -> plan("INSERT INTO item (id, name) VALUES (1, 'a') ON CONFLICT DO UPDATE SET name = 'b'"))
                .hasMessage("ON CONFLICT DO UPDATE requires inference specification or constraint name")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42601");
    }

    @Test
    void insertSelectWithTheColumnsItFillsNamesThemInItsChangeVector() throws Exception {
        Dml d = dml("INSERT INTO item SELECT id + 10, name FROM item WHERE id = ?");
        assertThat(CAPTURE.plan(d, ITEM, CaptureSettings.DEFAULT).sql()).contains("'[\"id\",\"name\",\"qty\",\"note\"]'::json");
        Dml named = d.withAssignedColumns(List.of(new ColumnRef("id", true), new ColumnRef("name", true)));
        String sql = CAPTURE.plan(named, ITEM, CaptureSettings.DEFAULT).sql();
        assertThat(sql).startsWith("WITH repl_changed AS (INSERT INTO item (\"id\", \"name\") SELECT id + 10, name FROM item WHERE id = ?")
                .contains("'[\"id\",\"name\"]'::json");
        // and an upsert of such a query is captured too
        assertThat(CAPTURE.plan(dml("INSERT INTO item SELECT id + 10, name FROM item ON CONFLICT (id) DO UPDATE SET qty = 0")
                .withAssignedColumns(named.assignedColumns()), ITEM, CaptureSettings.DEFAULT).sql())
                .contains("WITH repl_v (\"id\", \"name\") AS (SELECT id + 10, name FROM item)");
    }

    @Test
    void aLargeObjectIsLoggedByItsContentAndOnlyAsANewValue() throws SQLException {
        TableInfo doc = new TableInfo("s", "doc", List.of(new ColumnInfo("id", ValueType.INTEGER, "int4", false, false),
                new ColumnInfo("data", ValueType.LARGE_OBJECT, "oid", true, false)), List.of("id"));
        String insert = CAPTURE.plan(dml("INSERT INTO doc (id, data) VALUES (?, ?)"), doc, CaptureSettings.DEFAULT).sql();
        assertThat(insert).contains("'data', translate(encode(lo_get(repl_changed.\"data\"), 'base64')");
        String update = CAPTURE.plan(dml("UPDATE doc SET data = ? WHERE id = ?"), doc, CaptureSettings.DEFAULT).sql();
        assertThat(update).contains("lo_get(repl_changed.\"data\")").doesNotContain("AS repl_o2");
        String delete = CAPTURE.plan(dml("DELETE FROM doc WHERE id = ?"), doc, CaptureSettings.DEFAULT).sql();
        assertThat(delete).doesNotContain("lo_get").doesNotContain("'data'");
    }

    // ---- WITH queries that change rows

    private static String planWith(String sql, TableInfo... tables) throws SQLException {
        Analysis a = SqlClassifier.analyze(sql, Dialect.named("postgresql"));
        assertThat(a).as(sql).isInstanceOf(io.jdbcrepl.sql.WithDml.class);
        io.jdbcrepl.sql.WithDml with = (io.jdbcrepl.sql.WithDml) a;
        List<CaptureSettings> settings = java.util.Arrays.stream(tables).map(t -> t == null ? null : CaptureSettings.DEFAULT).toList();
        return CAPTURE.planWith(with, java.util.Arrays.asList(tables), settings).sql();
    }

    @Test
    void eachDataModifyingWithQueryCapturesItselfUnderItsOwnNames() throws SQLException {
        String sql = planWith("with ids (id) as materialized (select id from item where qty > ?),"
                + " gone (id) as (delete from item i where i.id in (select id from ids) returning i.id),"
                + " moved as (update item set note = ? where id in (select id from ids) returning id, note)"
                + " select count(*) from ids", ITEM, ITEM);
        assertThat(sql).startsWith("with ids (id) as materialized (select id from item where qty > ?), repl_changed_w2 AS"
                + " (DELETE FROM item AS i WHERE i.id in (select id from ids) RETURNING i.*)")
                .contains(", repl_logged_w2 AS (INSERT INTO repl_log (")
                .contains(", gone (id) as (SELECT i.id FROM repl_changed_w2 AS i)")
                .contains("repl_changed_w3 AS (UPDATE item SET \"note\" = ? FROM (SELECT")
                // the second change is logged after the first: the log has them in the order written
                .contains("FROM repl_changed_w3 WHERE (SELECT count(*) FROM repl_logged_w2) >= 0 RETURNING 1)")
                .contains(", moved as (SELECT id, note FROM repl_changed_w3 AS item)")
                .endsWith(" select count(*) from ids");
        assertThat(markers(sql)).isEqualTo(2);
        assertThat(sql.indexOf("qty > ?")).isLessThan(sql.indexOf("note\" = ?")); // parameters in the order written
    }

    @Test
    void aMainStatementThatChangesRowsIsCapturedAfterTheWithQueries() throws SQLException {
        String sql = planWith("WITH old AS (DELETE FROM item WHERE qty = ? RETURNING id) UPDATE item SET note = 'x'"
                + " WHERE id IN (SELECT id FROM old) AND name = ?", ITEM, ITEM);
        assertThat(sql).startsWith("WITH repl_changed_w1 AS (DELETE FROM item WHERE qty = ? RETURNING item.*)")
                .contains(", old AS (SELECT id FROM repl_changed_w1 AS item), repl_changed AS (UPDATE item SET")
                .contains("WHERE (SELECT count(*) FROM repl_logged_w1) >= 0");
        // the main statement ends in the log insert: its update count is the rows it changed
        assertThat(sql.substring(sql.lastIndexOf(") INSERT INTO repl_log"))).doesNotContain("SELECT count(*) FROM old");
        assertThat(markers(sql)).isEqualTo(2);
        // a change on a table that is not replicated stays as written
        String partly = planWith("WITH old AS (DELETE FROM scratch WHERE a = ? RETURNING id) DELETE FROM item WHERE id IN"
                + " (SELECT id FROM old)", null, ITEM);
        assertThat(partly).startsWith("WITH old AS (DELETE FROM scratch WHERE a = ? RETURNING id), repl_changed AS (DELETE");
    }

    @Test
    void anUpsertInsideWithIsRefused() {
        assertThatThrownBy(() -> planWith("WITH x AS (INSERT INTO item (id, name) VALUES (?, ?) ON CONFLICT (id) DO UPDATE"
                + " SET name = EXCLUDED.name RETURNING id) SELECT * FROM x", ITEM))
                .isInstanceOf(io.jdbcrepl.capture.CaptureException.class).hasMessageContaining("statement of its own");
    }
}
