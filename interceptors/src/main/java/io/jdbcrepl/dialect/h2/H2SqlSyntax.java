package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.sql.SqlSyntax;

/** H2's strings, comments and statement forms, as capture reads them. */
final class H2SqlSyntax implements SqlSyntax {

    @Override
    public boolean dollarQuotes() {
        return true;
    }

    @Override
    public boolean nestedComments() {
        return true;
    }

    @Override
    public boolean slashComments() {
        return true;
    }

    @Override
    public boolean deltaTables() {
        return true;
    }
}
