package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.sql.SqlSyntax;

import java.util.regex.Pattern;

/** H2's strings, comments and statement forms, as capture reads them. */
final class H2SqlSyntax implements SqlSyntax {

    /**
     * {@code CALL} of a built-in that returns a value of the session, unqualified and without
     * arguments: H2 calls the built-in even where an alias of that name exists, so it changes nothing.
     */
    private static final Pattern SESSION_VALUE_CALL = Pattern.compile(
            "(?is)\\s*CALL\\s+(SCHEMA|CURRENT_SCHEMA|DATABASE|CURRENT_CATALOG|USER|CURRENT_USER|H2VERSION)"
                    + "\\s*(\\(\\s*\\))?\\s*;?\\s*");

    @Override
    public boolean callReadsOnly(String sql) {
        return SESSION_VALUE_CALL.matcher(sql).matches();
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
    public boolean slashComments() {
        return true;
    }

    @Override
    public boolean deltaTables() {
        return true;
    }
}
