package io.jdbcrepl.sql;

/**
 * The SQL a database writes that capture's reading of statements must follow: how its strings and
 * comments are written, and the statement forms of its own. A part of the dialect
 * ({@code dialect.part(SqlSyntax.class)}), one per database; each answer defaults to what the SQL
 * standard says (no backslash escapes, block comments that do not nest, {@code --} comments).
 */
public interface SqlSyntax {

    /** A backslash escapes the next character in strings and quoted names ({@code 'it\'s'}: MySQL). */
    default boolean backslashEscapes() {
        return false;
    }

    /** {@code E'…'} strings, in which a backslash escapes (PostgreSQL). */
    default boolean escapeStrings() {
        return false;
    }

    /** Dollar-quoted strings, {@code $$…$$} and {@code $tag$…$tag$} (PostgreSQL, H2). */
    default boolean dollarQuotes() {
        return false;
    }

    /** Block comments nest (PostgreSQL, H2). */
    default boolean nestedComments() {
        return false;
    }

    /** {@code #} starts a line comment (MySQL). */
    default boolean hashComments() {
        return false;
    }

    /** {@code //} starts a line comment (H2). */
    default boolean slashComments() {
        return false;
    }

    /** {@code --} starts a comment only when a blank follows (MySQL). */
    default boolean dashesNeedBlank() {
        return false;
    }

    /** {@code /*! … *}{@code /} and {@code /*M! … *}{@code /} are executable comments: their content runs (MySQL). */
    default boolean executableComments() {
        return false;
    }

    /** {@code UPDATE ONLY t} and {@code DELETE FROM ONLY t}: a table without its inheritance children (PostgreSQL). */
    default boolean onlyKeyword() {
        return false;
    }

    /** Data change delta tables: {@code SELECT … FROM FINAL|OLD TABLE (INSERT|DELETE …)} (H2). */
    default boolean deltaTables() {
        return false;
    }

    /** The multi-table {@code DELETE x FROM t x}, which may delete from the one table it reads (MySQL). */
    default boolean multiTableDelete() {
        return false;
    }

    /** A SET target {@code a.b} is field b of composite column a, not column b of table a (PostgreSQL). */
    default boolean compositeFieldTargets() {
        return false;
    }

    /**
     * The vendor's JDBC driver turns {@code {call f(…)}} into a SELECT of the function, a query
     * (pgjdbc with its default {@code escapeSyntaxCallMode=select}); otherwise into a CALL.
     */
    default boolean callEscapeIsQuery() {
        return false;
    }

    /**
     * The vendor's JDBC driver turns {@code {? = call f(…)}} into a SELECT of the function, a query
     * (pgjdbc, MariaDB's and MySQL's Connector/J); otherwise into a CALL (H2).
     */
    default boolean functionEscapeIsQuery() {
        return false;
    }

    /**
     * A CALL statement that only reads a value of the session, so it runs as a query (H2's
     * {@code CALL SCHEMA()}, which Flyway asks); {@code sql} is the whole statement.
     */
    default boolean callReadsOnly(String sql) {
        return false;
    }
}
