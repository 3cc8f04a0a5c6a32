package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * A MySQL/MariaDB {@code LOAD DATA [LOCAL] INFILE 'file' [REPLACE|IGNORE] INTO TABLE t … [(columns)] [SET
 * col = expr, …]}, read far enough to run the same load into another table: capture stages it in a
 * temporary table and inserts the rows from there with a captured {@code INSERT … SELECT}.
 *
 * @param table      the table loaded, as written
 * @param local      {@code LOCAL}: the client sends the file (duplicate keys then skip rows, as IGNORE)
 * @param duplicates what the statement says about duplicate keys: {@code ""}, {@code REPLACE} or {@code IGNORE}
 * @param columns    the columns the load assigns, as written: the column list without its {@code @variables},
 *                   then the SET targets; empty when the statement has neither (every column, in order)
 */
public record LoadData(String sql, TableRef table, int tableStart, int tableEnd, boolean local, String duplicates,
        List<String> columns) {

    public LoadData {
        columns = List.copyOf(columns);
    }

    /** The LOAD DATA of {@code sql}, read with {@code dialect}'s syntax (MySQL's), or null when it is not one this record can express (LOAD XML, PARTITION). */
    public static LoadData parse(String sql, Dialect dialect) {
        if (sql == null) return null;
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("LOAD")) return null;
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("DATA")) return null;
        lexer.next();
        if (lexer.isWordIn("LOW_PRIORITY", "CONCURRENT")) lexer.next();
        boolean local = lexer.isWord("LOCAL");
        if (local) lexer.next();
        if (!lexer.isWord("INFILE") || lexer.next() != SqlLexer.Kind.STRING) return null;
        lexer.next();
        String duplicates = "";
        if (lexer.isWordIn("REPLACE", "IGNORE")) {
            duplicates = lexer.text().toUpperCase(java.util.Locale.ROOT);
            lexer.next();
        }
        if (!lexer.isWord("INTO") || lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("TABLE")) return null;
        lexer.next();
        SqlLexer.DottedName name = lexer.dottedName();
        if (name == null || name.parts().size() > 2 || lexer.isWord("PARTITION")) return null;
        List<String> columns = new ArrayList<>();
        boolean listed = false;
        // CHARACTER SET, FIELDS/COLUMNS …, LINES …, IGNORE n LINES: no parentheses until the column list
        while (lexer.kind() != SqlLexer.Kind.END && !lexer.isSymbol('(') && !lexer.isWord("SET")) {
            if (lexer.isWord("CHARACTER")) lexer.next(); // CHARACTER SET is not the SET list
            lexer.next();
        }
        if (lexer.isSymbol('(')) {
            listed = true;
            while (true) {
                lexer.next();
                if (lexer.isSymbol(')') && columns.isEmpty()) break; // () loads no column
                if (lexer.isSymbol('@')) {
                    lexer.next(); // a user variable: read, not stored
                } else if (lexer.isName()) {
                    columns.add(lexer.text());
                } else {
                    return null;
                }
                lexer.next();
                if (lexer.isSymbol(')')) break;
                if (!lexer.isSymbol(',')) return null;
            }
            lexer.next();
        }
        if (lexer.isWord("SET")) {
            listed = true;
            int depth = 0;
            boolean expectTarget = true;
            while (lexer.next() != SqlLexer.Kind.END && !lexer.isSymbol(';')) {
                if (expectTarget) {
                    if (!lexer.isName()) return null;
                    columns.add(lexer.text());
                    expectTarget = false;
                } else if (lexer.isSymbol('(')) {
                    depth++;
                } else if (lexer.isSymbol(')')) {
                    depth--;
                } else if (depth == 0 && lexer.isSymbol(',')) {
                    expectTarget = true;
                }
            }
        } else if (lexer.kind() != SqlLexer.Kind.END && !lexer.isSymbol(';')) {
            return null;
        }
        if (listed && columns.isEmpty()) return null;
        TableRef table = TableRef.of(name.parts(), null, sql.substring(name.start(), name.end()));
        return new LoadData(sql, table, name.start(), name.end(), local, duplicates, columns);
    }

    /** The same load into {@code tableSql} (ready to put into SQL). */
    public String into(String tableSql) {
        return sql.substring(0, tableStart) + tableSql + sql.substring(tableEnd);
    }
}
