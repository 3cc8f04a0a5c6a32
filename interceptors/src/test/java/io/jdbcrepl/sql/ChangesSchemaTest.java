package io.jdbcrepl.sql;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class ChangesSchemaTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "ALTER TABLE t ADD COLUMN x INT",
        "alter table t drop column x",
        "  /* c */ -- d\n DROP TABLE t",
        "(ALTER TABLE t RENAME TO u)",
        "RENAME TABLE t TO u",
        "drop table if exists t cascade",
        "CREATE UNIQUE INDEX u ON t (a)",
        "create /* c */ unique index u on t (a)"})
    void ddlThatMayChangeColumnsIsRecognised(String sql) {
        assertThat(SqlClassifier.changesSchema(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "   ", "SELECT 1", "CREATE TABLE t (id INT)", "CREATE INDEX i ON t (a)", "CREATE", "CREATE UNIQUEX", "UPDATE t SET altered = 1", "ALTERED", "DROPS",
        "INSERT INTO alter_log VALUES (1)", "/* not closed ALTER TABLE t"})
    void otherStatementsAreNot(String sql) {
        assertThat(SqlClassifier.changesSchema(sql)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "CREATE TABLE t (id serial PRIMARY KEY)", "create unlogged table t (id int)", " -- c\n CREATE SEQUENCE s",
        "CREATE GLOBAL TEMPORARY TABLE t (id INT)", "create temp table t (id int)", "CREATE CACHED TABLE t (id INT)"})
    void tablesAndSequencesCreatedAreRecognised(String sql) {
        assertThat(SqlClassifier.createsTableOrSequence(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "CREATE", "CREATE INDEX i ON t (a)", "CREATE VIEW v AS SELECT 1", "CREATE TABLESPACE x", "SELECT 1",
        "INSERT INTO create_table VALUES (1)", "CREATE OR REPLACE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql",
        "CREATE TEMP VIEW v AS SELECT 1"})
    void otherStatementsCreateNoKeys(String sql) {
        assertThat(SqlClassifier.createsTableOrSequence(sql)).isFalse();
    }
}
