package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.sql.SqlSyntax;

/** MySQL's (and MariaDB's) strings, comments and statement forms, as capture reads them. */
final class MySqlSyntax implements SqlSyntax {

    @Override
    public boolean backslashEscapes() {
        return true;
    }

    @Override
    public boolean hashComments() {
        return true;
    }

    @Override
    public boolean dashesNeedBlank() {
        return true;
    }

    @Override
    public boolean executableComments() {
        return true;
    }

    @Override
    public boolean multiTableDelete() {
        return true;
    }

    @Override
    public boolean functionEscapeIsQuery() {
        return true;
    }
}
