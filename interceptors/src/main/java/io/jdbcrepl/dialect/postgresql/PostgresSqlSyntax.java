package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.sql.SqlSyntax;

/** PostgreSQL's strings, comments and statement forms, as capture reads them. */
final class PostgresSqlSyntax implements SqlSyntax {

    @Override
    public boolean escapeStrings() {
        return true;
    }

    @Override
    public boolean dollarQuotes() {
        return true;
    }

    @Override
    public boolean nestedComments() {
        return true;
    }

    @Override
    public boolean onlyKeyword() {
        return true;
    }

    @Override
    public boolean compositeFieldTargets() {
        return true;
    }

    @Override
    public boolean callEscapeIsQuery() {
        return true;
    }

    @Override
    public boolean functionEscapeIsQuery() {
        return true;
    }
}
