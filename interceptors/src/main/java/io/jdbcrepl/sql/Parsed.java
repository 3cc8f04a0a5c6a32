package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;

/** One statement parsed by JSqlParser, with its tokens. */
record Parsed(Statement statement, TokenList tokens) {

    /**
     * Parses {@code input} (the SQL, possibly with words blanked out) in the caller's thread: not
     * through {@code CCJSqlParserUtil.parse}, which starts a thread and logs at INFO on every call.
     * Like it, it tries the fast simple mode first and the complex mode only for shallow nesting.
     * Texts are cut from {@code sql}, which has the same offsets as {@code input}.
     *
     * @throws UnreadableSqlException with the parser's message, abbreviated
     */
    static Parsed parse(String input, String sql, Dialect dialect) {
        try {
            return attempt(input, sql, dialect, false);
        } catch (Exception | StackOverflowError simpleFailed) {
            if (CCJSqlParserUtil.getNestingDepth(input) <= 10) {
                try {
                    return attempt(input, sql, dialect, true);
                } catch (Exception | StackOverflowError ignored) {
                    // report the first failure: it names the first token the parser could not take
                }
            }
            throw new UnreadableSqlException(Reasons.abbreviate(simpleFailed.getMessage()));
        }
    }

    private static Parsed attempt(String input, String sql, Dialect dialect, boolean complex) throws ParseException {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(input)
                .withAllowComplexParsing(complex)
                .withBackslashEscapeCharacter(dialect.part(SqlSyntax.class).backslashEscapes()); // 'it\'s' in MySQL
        Token head = parser.token; // the parser links every token it reads after this one
        Statement statement = parser.Statement();
        return new Parsed(statement, TokenList.of(sql, head));
    }
}
