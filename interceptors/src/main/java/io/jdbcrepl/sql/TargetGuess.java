package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the tables a statement changes from its leading words, for statements the parser does not
 * take apart (MERGE, REPLACE, TRUNCATE, COPY, LOAD DATA, or SQL it cannot parse). It answers only
 * when the words leave no doubt (an UPDATE must reach SET after one table, a DELETE one table after
 * FROM); otherwise the list is empty, meaning "unknown".
 */
final class TargetGuess {

    private final SqlLexer lexer;
    private final String sql;

    private TargetGuess(String sql, int from, Dialect dialect) {
        this.sql = sql;
        this.lexer = new SqlLexer(sql, dialect, from);
    }

    /** The tables the statement starting at {@code from} changes, or an empty list when unsure. */
    static List<TableRef> tables(String sql, int from, Dialect dialect) {
        return new TargetGuess(sql, from, dialect).read();
    }

    private List<TableRef> read() {
        lexer.next();
        if (lexer.isWordIn("INSERT", "REPLACE")) {
            skip("LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE", "INTO");
            return single();
        }
        if (lexer.isWordIn("MERGE", "UPSERT")) {
            skip("INTO", "ONLY");
            return single();
        }
        if (lexer.isWord("UPDATE")) {
            skip("LOW_PRIORITY", "IGNORE", "ONLY");
            TableRef t = name();
            return t != null && skipAlias() && lexer.isWord("SET") ? List.of(t) : List.of();
        }
        if (lexer.isWord("DELETE")) {
            skip("LOW_PRIORITY", "QUICK", "IGNORE");
            if (!lexer.isWord("FROM")) return List.of(); // DELETE a, b FROM …: several tables
            skip("ONLY");
            TableRef t = name();
            boolean alone = t != null && skipAlias() && (lexer.kind() == SqlLexer.Kind.END || lexer.isSymbol(';')
                    || lexer.isSymbol(')') || lexer.isWordIn("USING", "WHERE", "ORDER", "LIMIT", "RETURNING"));
            return alone ? List.of(t) : List.of();
        }
        if (lexer.isWord("TRUNCATE")) {
            skip("TABLE", "ONLY");
            return truncated();
        }
        if (lexer.isWord("COPY")) {
            skip("BINARY");
            return single();
        }
        if (lexer.isWord("LOAD")) { // LOAD DATA|XML … INTO TABLE t
            while (lexer.kind() != SqlLexer.Kind.END && !lexer.isWord("TABLE")) lexer.next();
            lexer.next();
            return single();
        }
        return List.of();
    }

    private List<TableRef> truncated() {
        List<TableRef> tables = new ArrayList<>();
        while (true) {
            TableRef t = name();
            if (t == null) return List.of();
            tables.add(t);
            if (lexer.isSymbol('*')) lexer.next(); // PostgreSQL: t * includes inheritance children
            if (!lexer.isSymbol(',')) break;
            skip("ONLY");
        }
        while (lexer.kind() != SqlLexer.Kind.END && !lexer.isSymbol(';')) {
            if (lexer.isWord("CASCADE")) return List.of(); // also empties tables it does not name
            lexer.next();
        }
        return tables;
    }

    private List<TableRef> single() {
        TableRef t = name();
        return t == null ? List.of() : List.of(t);
    }

    /** Moves past the current token and then past any of the optional words given. */
    private void skip(String... optionalWords) {
        lexer.next();
        while (lexer.isWordIn(optionalWords)) lexer.next();
    }

    /** Reads {@code name[.name[.name]]} at the current token, leaving the lexer after it; null if none. */
    private TableRef name() {
        SqlLexer.DottedName name = lexer.dottedName();
        if (name == null || name.parts().size() > 3) return null;
        return TableRef.of(name.parts(), null, sql.substring(name.start(), name.end()));
    }

    /** Skips {@code [AS] alias}; false if AS is not followed by a name. */
    private boolean skipAlias() {
        if (lexer.isWord("AS")) {
            lexer.next();
            if (!lexer.isName()) return false;
            lexer.next();
        } else if (lexer.kind() == SqlLexer.Kind.QUOTED || (lexer.kind() == SqlLexer.Kind.WORD
                && !lexer.isWordIn("SET", "USING", "WHERE", "ORDER", "LIMIT", "RETURNING"))) {
            lexer.next();
        }
        return true;
    }
}
