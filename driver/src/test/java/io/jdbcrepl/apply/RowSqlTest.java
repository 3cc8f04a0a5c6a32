package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.capture.sql.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowSqlTest {

    @Test
    void insertNamesEveryColumn() {
        assertThat(RowSql.insert(Dialect.POSTGRESQL, RowSql.table(Dialect.POSTGRESQL, "public", "emp"), List.of("id", "name")))
                .isEqualTo("INSERT INTO \"public\".\"emp\" (\"id\", \"name\") VALUES (?, ?)");
        assertThat(RowSql.insert(Dialect.MYSQL, RowSql.table(Dialect.MYSQL, "db", "emp"), List.of("id")))
                .isEqualTo("INSERT INTO `db`.`emp` (`id`) VALUES (?)");
    }

    @Test
    void updateComparesTheKeyWithEqualsAndOldValuesNullSafely() {
        List<String> set = List.of("salary");
        List<String> key = List.of("id");
        List<String> compared = List.of("salary", "dept");
        assertThat(RowSql.update(Dialect.POSTGRESQL, "\"public\".\"emp\"", set, key, compared, false)).isEqualTo(
                "UPDATE \"public\".\"emp\" SET \"salary\" = ? WHERE \"id\" = ?"
                        + " AND \"salary\" IS NOT DISTINCT FROM ? AND \"dept\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.update(Dialect.MYSQL, "`db`.`emp`", set, key, compared, false)).isEqualTo(
                "UPDATE `db`.`emp` SET `salary` = ? WHERE `id` = ? AND `salary` <=> ? AND `dept` <=> ?");
        assertThat(RowSql.update(Dialect.H2, "\"PUBLIC\".\"EMP\"", List.of("SALARY"), List.of("ID"), List.of(), false)).isEqualTo(
                "UPDATE \"PUBLIC\".\"EMP\" SET \"SALARY\" = ? WHERE \"ID\" = ?");
    }

    @Test
    void deleteAndSelectByKey() {
        assertThat(RowSql.delete(Dialect.H2, "\"S\".\"T\"", List.of("A", "B"), List.of("C"), false))
                .isEqualTo("DELETE FROM \"S\".\"T\" WHERE \"A\" = ? AND \"B\" = ? AND \"C\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.select(Dialect.MYSQL, "`t`", List.of("a", "b"), List.of("a"), false))
                .isEqualTo("SELECT `a`, `b` FROM `t` WHERE `a` = ?");
    }

    @Test
    void aTableWithoutKeyIsMatchedNullSafelyAndOneOfIdenticalRowsChanges() {
        List<String> key = List.of("a", "b");
        assertThat(RowSql.update(Dialect.POSTGRESQL, "\"t\"", List.of("b"), key, List.of("c"), true)).isEqualTo(
                "UPDATE \"t\" SET \"b\" = ? WHERE ctid = (SELECT ctid FROM \"t\" WHERE \"a\" IS NOT DISTINCT FROM ?"
                        + " AND \"b\" IS NOT DISTINCT FROM ? AND \"c\" IS NOT DISTINCT FROM ? LIMIT 1)");
        assertThat(RowSql.delete(Dialect.MYSQL, "`t`", key, List.of(), true))
                .isEqualTo("DELETE FROM `t` WHERE `a` <=> ? AND `b` <=> ? LIMIT 1");
        assertThat(RowSql.update(Dialect.H2, "\"T\"", List.of("B"), List.of("A"), List.of(), true))
                .isEqualTo("UPDATE \"T\" SET \"B\" = ? WHERE \"A\" IS NOT DISTINCT FROM ? LIMIT 1");
        assertThat(RowSql.selectForUpdate(Dialect.H2, "\"T\"", List.of("A", "B"), List.of("A"), true))
                .isEqualTo("SELECT \"A\", \"B\" FROM \"T\" WHERE \"A\" IS NOT DISTINCT FROM ? LIMIT 1 FOR UPDATE");
    }

    @Test
    void quotesAreDoubledInIdentifiers() {
        assertThat(RowSql.quote(Dialect.POSTGRESQL, "we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(RowSql.quote(Dialect.MYSQL, "we`ird")).isEqualTo("`we``ird`");
    }
}
