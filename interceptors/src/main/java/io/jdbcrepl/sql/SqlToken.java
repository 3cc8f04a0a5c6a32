package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * One token of a statement as {@link SqlLexer} reads it for the dialect, for readers of SQL outside
 * this package (the materialized view statements), so that strings, comments and quoted names are
 * read one way everywhere, the database's.
 *
 * @param kind   what the token is
 * @param text   the token as written ({@code 'it''s'}, {@code "Mv"}, {@code E'a\n'}, {@code $$x$$})
 * @param start  where it starts in the SQL
 * @param value  what it means: a string's value, a quoted name without its quotes, else the text
 * @param closed false for a string or quoted name the SQL ends inside of
 */
public record SqlToken(Kind kind, String text, int start, String value, boolean closed) {

    /** Names ({@code WORD}: unquoted, as written; {@code QUOTED}), literals and any other character. */
    public enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL }

    /** The tokens of {@code sql}; comments and blanks are skipped. */
    public static List<SqlToken> read(String sql, Dialect dialect) {
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        List<SqlToken> tokens = new ArrayList<>();
        while (true) {
            Kind kind = switch (lexer.next()) {
                case WORD -> Kind.WORD;
                case QUOTED -> Kind.QUOTED;
                case STRING -> Kind.STRING;
                case NUMBER -> Kind.NUMBER;
                case SYMBOL -> Kind.SYMBOL;
                case END -> null;
            };
            if (kind == null) return tokens;
            tokens.add(new SqlToken(kind, lexer.text(), lexer.start(), lexer.value(), lexer.closed()));
        }
    }

    /** Whether this is the word or symbol {@code s} (case-insensitive). */
    public boolean is(String s) {
        return (kind == Kind.WORD || kind == Kind.SYMBOL) && text.equalsIgnoreCase(s);
    }

    /** A name: a word or a quoted name. */
    public boolean isName() {
        return kind == Kind.WORD || kind == Kind.QUOTED;
    }
}
