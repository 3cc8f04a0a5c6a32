package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link CopyFrom} and {@link LoadData}: what a staged load keeps of the application's statement. */
class BulkLoadParseTest {

    private static final Dialect PG = Dialect.named("postgresql");
    private static final Dialect MYSQL = Dialect.named("mariadb");

    @Test
    void copyFromKeepsItsSourceAndOptionsAndMovesToAnotherTable() {
        CopyFrom copy = CopyFrom.parse("COPY hr.\"Emp\" (id, \"Name\") FROM STDIN WITH (FORMAT csv, HEADER true)", PG);
        assertThat(copy.table()).isEqualTo(new TableRef("hr", "Emp", null, false, true, "hr.\"Emp\""));
        assertThat(copy.columns()).containsExactly("id", "\"Name\"");
        assertThat(copy.stdin()).isTrue();
        assertThat(copy.usesDefault()).isFalse();
        assertThat(copy.into("pg_temp.s", List.of("\"id\"", "\"Name\"")))
                .isEqualTo("COPY pg_temp.s (\"id\", \"Name\") FROM STDIN WITH (FORMAT csv, HEADER true)");
    }

    @Test
    void copyFromAFileOrAProgram() {
        CopyFrom file = CopyFrom.parse("copy t from '/data/t.csv' csv", PG);
        assertThat(file.stdin()).isFalse();
        assertThat(file.columns()).isEmpty();
        assertThat(file.source()).isEqualTo("from '/data/t.csv' csv");
        CopyFrom program = CopyFrom.parse("COPY t (a) FROM PROGRAM 'gunzip -c t.gz' WHERE a > 0", PG);
        assertThat(program.stdin()).isFalse();
        assertThat(program.into("s", List.of("\"a\""))).isEqualTo("COPY s (\"a\") FROM PROGRAM 'gunzip -c t.gz' WHERE a > 0");
    }

    @Test
    void copyWithTheDefaultMarkerIsFlagged() {
        assertThat(CopyFrom.parse("COPY t FROM STDIN (FORMAT csv, DEFAULT '\\D')", PG).usesDefault()).isTrue();
        assertThat(CopyFrom.parse("COPY t FROM STDIN (FORMAT csv, NULL 'DEFAULT')", PG).usesDefault())
                .as("the word in a string is data").isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"COPY t TO STDOUT", "COPY (SELECT 1) TO STDOUT", "COPY t (a) TO 'f'", "COPY BINARY t FROM STDIN",
        "COPY t FROM", "COPY t FROM somewhere", "COPY a.b.c.d FROM STDIN", "SELECT 1", "COPY t (a, ) FROM STDIN"})
    void notACopyFromThisRecordExpresses(String sql) {
        assertThat(CopyFrom.parse(sql, PG)).isNull();
    }

    @Test
    void loadDataWithEverythingBetweenTheTableAndTheColumns() {
        String sql = "LOAD DATA LOCAL INFILE '/tmp/x (1).csv' IGNORE INTO TABLE `db`.`t` CHARACTER SET utf8mb4"
                + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n' IGNORE 1 LINES"
                + " (id, @skip, `Name`, @q) SET qty = nullif(@q, ''), note = concat('a', ',', 'b')";
        LoadData load = LoadData.parse(sql, MYSQL);
        assertThat(load.table()).isEqualTo(new TableRef("db", "t", null, true, true, "`db`.`t`"));
        assertThat(load.local()).isTrue();
        assertThat(load.duplicates()).isEqualTo("IGNORE");
        assertThat(load.columns()).containsExactly("id", "`Name`", "qty", "note");
        assertThat(load.into("repl_load_1")).isEqualTo(sql.replace("`db`.`t`", "repl_load_1"));
    }

    @Test
    void loadDataWithoutAColumnList() {
        LoadData load = LoadData.parse("load data infile 'f' replace into table t", MYSQL);
        assertThat(load.local()).isFalse();
        assertThat(load.duplicates()).isEqualTo("REPLACE");
        assertThat(load.columns()).isEmpty();
        assertThat(LoadData.parse("LOAD DATA CONCURRENT INFILE 'f' INTO TABLE t SET a = 1", MYSQL).columns()).containsExactly("a");
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOAD XML INFILE 'f' INTO TABLE t", "LOAD DATA INFILE 'f' INTO TABLE t PARTITION (p0)",
        "LOAD DATA INFILE f INTO TABLE t", "LOAD DATA INFILE 'f' INTO t", "LOAD DATA INFILE 'f' INTO TABLE t ()",
        "LOAD DATA INFILE 'f' INTO TABLE t (a) garbage", "LOAD DATA INFILE 'f' INTO TABLE c.d.t"})
    void notALoadThisRecordExpresses(String sql) {
        assertThat(LoadData.parse(sql, MYSQL)).isNull();
    }
}
