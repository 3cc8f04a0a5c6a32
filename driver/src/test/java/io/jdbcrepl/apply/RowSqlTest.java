package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowSqlTest {

    @Test
    void insertNamesEveryColumn() {
        assertThat(RowSql.insert(Dialect.named("postgresql"), table(RowSql.table(Dialect.named("postgresql"), "public", "emp"), "id", "name"), List.of("id", "name")))
                .isEqualTo("INSERT INTO \"public\".\"emp\" (\"id\", \"name\") VALUES (?, ?)");
        assertThat(RowSql.insert(Dialect.named("mariadb"), table(RowSql.table(Dialect.named("mariadb"), "db", "emp"), "id"), List.of("id")))
                .isEqualTo("INSERT INTO `db`.`emp` (`id`) VALUES (?)");
    }

    @Test
    void updateComparesTheKeyWithEqualsAndOldValuesNullSafely() {
        List<String> set = List.of("salary");
        List<String> key = List.of("id");
        List<String> compared = List.of("salary", "dept");
        assertThat(RowSql.update(Dialect.named("postgresql"), table("\"public\".\"emp\"", "id", "salary", "dept"), set, key, compared)).isEqualTo(
                "UPDATE \"public\".\"emp\" SET \"salary\" = ? WHERE \"id\" = ?"
                        + " AND \"salary\" IS NOT DISTINCT FROM ? AND \"dept\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.update(Dialect.named("mariadb"), table("`db`.`emp`", "id", "salary", "dept"), set, key, compared)).isEqualTo(
                "UPDATE `db`.`emp` SET `salary` = ? WHERE `id` = ? AND `salary` <=> ? AND `dept` <=> ?");
        assertThat(RowSql.update(Dialect.named("h2"), table("\"PUBLIC\".\"EMP\"", "ID", "SALARY"), List.of("SALARY"), List.of("ID"), List.of())).isEqualTo(
                "UPDATE \"PUBLIC\".\"EMP\" SET \"SALARY\" = ? WHERE \"ID\" = ?");
    }

    @Test
    void deleteAndSelectByKey() {
        assertThat(RowSql.delete(Dialect.named("h2"), "\"S\".\"T\"", List.of("A", "B"), List.of("C"), false))
                .isEqualTo("DELETE FROM \"S\".\"T\" WHERE \"A\" = ? AND \"B\" = ? AND \"C\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.select(Dialect.named("mariadb"), table("`t`", "a", "b"), List.of("a", "b"), List.of("a")))
                .isEqualTo("SELECT `a`, `b` FROM `t` WHERE `a` = ?");
    }

    @Test
    void aTableWithoutKeyIsMatchedNullSafelyAndOneOfIdenticalRowsChanges() {
        List<String> key = List.of("a", "b");
        assertThat(RowSql.update(Dialect.named("postgresql"), keyless("\"t\"", "a", "b", "c"), List.of("b"), key, List.of("c"))).isEqualTo(
                "UPDATE \"t\" SET \"b\" = ? WHERE ctid = (SELECT ctid FROM \"t\" WHERE \"a\" IS NOT DISTINCT FROM ?"
                        + " AND \"b\" IS NOT DISTINCT FROM ? AND \"c\" IS NOT DISTINCT FROM ? LIMIT 1)");
        assertThat(RowSql.delete(Dialect.named("mariadb"), "`t`", key, List.of(), true))
                .isEqualTo("DELETE FROM `t` WHERE `a` <=> ? AND `b` <=> ? LIMIT 1");
        assertThat(RowSql.update(Dialect.named("h2"), keyless("\"T\"", "A", "B"), List.of("B"), List.of("A"), List.of()))
                .isEqualTo("UPDATE \"T\" SET \"B\" = ? WHERE \"A\" IS NOT DISTINCT FROM ? LIMIT 1");
        assertThat(RowSql.selectForUpdate(Dialect.named("h2"), keyless("\"T\"", "A", "B"), List.of("A", "B"), List.of("A")))
                .isEqualTo("SELECT \"A\", \"B\" FROM \"T\" WHERE \"A\" IS NOT DISTINCT FROM ? LIMIT 1 FOR UPDATE");
    }

    @Test
    void aLargeObjectIsAssignedANewObjectAndReadAsItsContent() {
        TableMap.LocalTable doc = new TableMap.LocalTable(new TableInfo("public", "doc", List.of(
                new ColumnInfo("id", ValueType.INTEGER, "int4", false, false),
                new ColumnInfo("data", ValueType.LARGE_OBJECT, "oid", true, false)), List.of("id")),
                "\"public\".\"doc\"", Set.of(), false, false);
        assertThat(RowSql.insert(Dialect.named("postgresql"), doc, List.of("id", "data")))
                .isEqualTo("INSERT INTO \"public\".\"doc\" (\"id\", \"data\") VALUES (?, lo_from_bytea(0, ?))");
        assertThat(RowSql.update(Dialect.named("postgresql"), doc, List.of("data"), List.of("id"), List.of()))
                .isEqualTo("UPDATE \"public\".\"doc\" SET \"data\" = lo_from_bytea(0, ?) WHERE \"id\" = ?");
        assertThat(RowSql.select(Dialect.named("postgresql"), doc, List.of("id", "data"), List.of("id")))
                .isEqualTo("SELECT \"id\", lo_get(\"data\") FROM \"public\".\"doc\" WHERE \"id\" = ?");
        assertThat(doc.compared("data")).as("a large object's old value is never compared").isFalse();
    }

    @Test
    void anAlwaysIdentityTableTakesTheSourcesKeysOverridingTheSystemValue() {
        TableMap.LocalTable t = new TableMap.LocalTable(new TableInfo("public", "t", columns("id", "v"), List.of("id")),
                "\"public\".\"t\"", Set.of(), false, true);
        assertThat(RowSql.insert(Dialect.named("postgresql"), t, List.of("id", "v")))
                .isEqualTo("INSERT INTO \"public\".\"t\" (\"id\", \"v\") OVERRIDING SYSTEM VALUE VALUES (?, ?)");
    }

    /** A destination table of text columns, the first one its key. */
    private static TableMap.LocalTable table(String sql, String... columns) {
        return new TableMap.LocalTable(new TableInfo(null, "t", columns(columns), List.of(columns[0])), sql, Set.of(), false, false);
    }

    /** A destination table of text columns without key: keyed by all of them. */
    private static TableMap.LocalTable keyless(String sql, String... columns) {
        return new TableMap.LocalTable(new TableInfo(null, "t", columns(columns), List.of()).keyedByComparableColumns(),
                sql, Set.of(), false, false);
    }

    private static List<ColumnInfo> columns(String... names) {
        return java.util.Arrays.stream(names).map(c -> new ColumnInfo(c, ValueType.STRING, "varchar", true, false)).toList();
    }

    @Test
    void quotesAreDoubledInIdentifiers() {
        assertThat(RowSql.quote(Dialect.named("postgresql"), "we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(RowSql.quote(Dialect.named("mariadb"), "we`ird")).isEqualTo("`we``ird`");
    }
}
