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
        assertThat(RowSql.update(Dialect.POSTGRESQL, "\"public\".\"emp\"", set, key, compared)).isEqualTo(
                "UPDATE \"public\".\"emp\" SET \"salary\" = ? WHERE \"id\" = ?"
                        + " AND \"salary\" IS NOT DISTINCT FROM ? AND \"dept\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.update(Dialect.MYSQL, "`db`.`emp`", set, key, compared)).isEqualTo(
                "UPDATE `db`.`emp` SET `salary` = ? WHERE `id` = ? AND `salary` <=> ? AND `dept` <=> ?");
        assertThat(RowSql.update(Dialect.H2, "\"PUBLIC\".\"EMP\"", List.of("SALARY"), List.of("ID"), List.of())).isEqualTo(
                "UPDATE \"PUBLIC\".\"EMP\" SET \"SALARY\" = ? WHERE \"ID\" = ?");
    }

    @Test
    void deleteAndSelectByKey() {
        assertThat(RowSql.delete(Dialect.H2, "\"S\".\"T\"", List.of("A", "B"), List.of("C")))
                .isEqualTo("DELETE FROM \"S\".\"T\" WHERE \"A\" = ? AND \"B\" = ? AND \"C\" IS NOT DISTINCT FROM ?");
        assertThat(RowSql.select(Dialect.MYSQL, "`t`", List.of("a", "b"), List.of("a")))
                .isEqualTo("SELECT `a`, `b` FROM `t` WHERE `a` = ?");
    }

    @Test
    void quotesAreDoubledInIdentifiers() {
        assertThat(RowSql.quote(Dialect.POSTGRESQL, "we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(RowSql.quote(Dialect.MYSQL, "we`ird")).isEqualTo("`we``ird`");
    }
}
