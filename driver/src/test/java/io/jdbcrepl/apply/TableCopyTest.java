package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which path a join's table copy takes: the database's own bulk copy only between same databases and same types. */
class TableCopyTest {

    static final ColumnInfo ID = new ColumnInfo("id", ValueType.INTEGER, "int8", false, false);
    static final ColumnInfo NAME = new ColumnInfo("name", ValueType.STRING, "varchar", true, false);

    static TableCopy copy(String donor, List<ColumnInfo> donorColumns, String local, List<ColumnInfo> localColumns)
            throws SQLException {
        TableInfo from = new TableInfo("public", "t", donorColumns, List.of("id"));
        TableInfo to = new TableInfo("public", "t", localColumns, List.of("id"));
        return new TableCopy(null, Dialect.named(donor), from, null, Dialect.named(local),
                new TableMap.LocalTable(to, "\"public\".\"t\"", Set.of(), false, false));
    }

    @Test
    void postgresqlToPostgresqlWithTheSameTypesCopiesNatively() throws SQLException {
        assertThat(copy("postgresql", List.of(ID, NAME), "postgresql", List.of(ID, NAME)).natively()).isTrue();
        // a generated column is not copied: it does not decide
        ColumnInfo total = new ColumnInfo("total", ValueType.INTEGER, "int8", true, true);
        assertThat(copy("postgresql", List.of(ID, NAME, total), "postgresql", List.of(ID, NAME)).natively()).isTrue();
    }

    @Test
    void anyOtherPairOrTypeGoesThePortableWay() throws SQLException {
        ColumnInfo text = new ColumnInfo("name", ValueType.STRING, "text", true, false);
        assertThat(copy("postgresql", List.of(ID, NAME), "postgresql", List.of(ID, text)).natively()).isFalse();
        ColumnInfo largeObject = new ColumnInfo("name", ValueType.LARGE_OBJECT, "oid", true, false);
        assertThat(copy("postgresql", List.of(ID, largeObject), "postgresql", List.of(ID, largeObject)).natively()).isFalse();
        assertThat(copy("postgresql", List.of(ID, NAME), "mariadb", List.of(ID, NAME)).natively()).isFalse();
        assertThat(copy("mariadb", List.of(ID, NAME), "mariadb", List.of(ID, NAME)).natively()).isFalse();
        assertThat(copy("h2", List.of(ID, NAME), "h2", List.of(ID, NAME)).natively()).isFalse();
    }
}
