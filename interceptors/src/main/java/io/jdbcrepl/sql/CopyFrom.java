package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Dialect;

import java.util.ArrayList;
import java.util.List;

/**
 * A PostgreSQL {@code COPY table [(columns)] FROM {STDIN | 'file' | PROGRAM 'command'} [options]}, read
 * far enough to run the same load into another table: capture stages such a COPY in a temporary
 * table and inserts the rows from there with a captured {@code INSERT … SELECT}.
 *
 * @param table   the table loaded, as written
 * @param columns the column list as written (quotes kept), empty when the COPY has none (every column)
 * @param source  everything from {@code FROM} to the end, as written
 * @param stdin   whether the rows come from the client ({@code FROM STDIN}, the copy API)
 * @param usesDefault whether the options name {@code DEFAULT} (PostgreSQL 16: a marker that means the
 *                column's default, which only the real table knows)
 */
public record CopyFrom(TableRef table, List<String> columns, String source, boolean stdin, boolean usesDefault) {

    public CopyFrom {
        columns = List.copyOf(columns);
    }

    /** The COPY of {@code sql}, read with {@code dialect}'s syntax (PostgreSQL's), or null when it is not a {@code COPY table … FROM} this record can express. */
    public static CopyFrom parse(String sql, Dialect dialect) {
        if (sql == null) return null;
        SqlLexer lexer = new SqlLexer(sql, dialect, 0);
        if (lexer.next() != SqlLexer.Kind.WORD || !lexer.isWord("COPY")) return null;
        lexer.next();
        if (!lexer.isName() || lexer.isWordIn("BINARY", "FROM", "TO")) return null; // COPY (query) TO …, old syntax
        SqlLexer.DottedName name = lexer.dottedName();
        if (name == null || name.parts().size() > 3) return null;
        List<String> columns = new ArrayList<>();
        if (lexer.isSymbol('(')) {
            while (true) {
                lexer.next();
                if (!lexer.isName()) return null;
                columns.add(lexer.text());
                lexer.next();
                if (lexer.isSymbol(')')) break;
                if (!lexer.isSymbol(',')) return null;
            }
            lexer.next();
        }
        if (!lexer.isWord("FROM")) return null;
        int fromAt = lexer.start();
        lexer.next();
        boolean stdin = lexer.isWord("STDIN");
        if (!stdin && !lexer.isWord("PROGRAM") && lexer.kind() != SqlLexer.Kind.STRING) return null;
        boolean usesDefault = false;
        while (lexer.next() != SqlLexer.Kind.END) {
            usesDefault |= lexer.isWord("DEFAULT");
        }
        TableRef table = TableRef.of(name.parts(), null, sql.substring(name.start(), name.end()));
        return new CopyFrom(table, columns, sql.substring(fromAt), stdin, usesDefault);
    }

    /** The same load into {@code tableSql}'s {@code columnsSql} (both ready to put into SQL). */
    public String into(String tableSql, List<String> columnsSql) {
        return "COPY " + tableSql + " (" + String.join(", ", columnsSql) + ") " + source;
    }
}
