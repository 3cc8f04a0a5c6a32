package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.ddl.DdlSyntax;
import io.jdbcrepl.lcr.ValueType;

/**
 * MySQL's and MariaDB's DDL: a column's type or nullability changes only with its whole definition
 * (MODIFY, CHANGE); index names are each table's; TRUNCATE restarts AUTO_INCREMENT and cascades to
 * nothing; DROP TABLE's CASCADE does nothing; a column's REFERENCES is ignored by MySQL, so it is
 * written as a constraint. Its own: DECIMAL is DECIMAL(10,0), FLOAT 4 bytes, times to the second.
 */
final class MySqlDdlSyntax implements DdlSyntax {

    @Override
    public int defaultFraction(ValueType type) {
        return 0;
    }

    @Override
    public int[] defaultDecimal() {
        return new int[] {10, 0};
    }

    @Override
    public boolean floatIsReal() {
        return true;
    }

    @Override
    public String setType(String column, String type) {
        return null;
    }

    @Override
    public String setNotNull(String column, boolean notNull) {
        return null;
    }

    @Override
    public String redefine(String from, String to, String definition) {
        return from.equals(to) ? "MODIFY COLUMN " + to + " " + definition : "CHANGE COLUMN " + from + " " + to + " " + definition;
    }

    @Override
    public boolean renamesAlone() {
        return false;
    }

    @Override
    public boolean truncateRestartsIdentity() {
        return true;
    }

    @Override
    public boolean dropIndexNamesTable() {
        return true;
    }

    @Override
    public String tableOptions() {
        return " DEFAULT CHARSET=utf8mb4";
    }

    @Override
    public boolean inlineReferences() {
        return false;
    }

    @Override
    public boolean dropTableCascades() {
        return false;
    }

    @Override
    public String renameTable(String from, String qualified, String bare) {
        return "RENAME TABLE " + from + " TO " + qualified; // ALTER TABLE s.a RENAME TO b would move it to the current database
    }
}
